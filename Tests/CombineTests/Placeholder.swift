import Testing
import Combine
