import Combine
import Testing
