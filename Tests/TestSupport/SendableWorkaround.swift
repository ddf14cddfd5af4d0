// SPDX-License-Identifier: Apache-2.0
// swift-format-ignore-file: AvoidRetroactiveConformances

import Combine

// As in Apple's declarations, Combine's subjects, cancellables and publishers are not
// `Sendable`. The tests hand them to other threads all the time (that is what the stress tests
// are for), so they state the conformances themselves, as Swift 6 code written against Apple's
// Combine does: this file also shows that the common workaround compiles here unchanged.
#if canImport(Darwin)
extension PassthroughSubject: @retroactive @unchecked Sendable {}
extension CurrentValueSubject: @retroactive @unchecked Sendable {}
extension AnyCancellable: @retroactive @unchecked Sendable {}
extension Future: @retroactive @unchecked Sendable {}
extension Publishers.Share: @retroactive @unchecked Sendable {}
extension Publishers.Autoconnect: @retroactive @unchecked Sendable {}
extension Publishers.Multicast: @retroactive @unchecked Sendable {}
extension Publishers.MakeConnectable: @retroactive @unchecked Sendable {}
extension AnyPublisher: @retroactive @unchecked Sendable {}
#else
extension PassthroughSubject: @unchecked Sendable {}
extension CurrentValueSubject: @unchecked Sendable {}
extension AnyCancellable: @unchecked Sendable {}
extension Future: @unchecked Sendable {}
extension Publishers.Share: @unchecked Sendable {}
extension Publishers.Autoconnect: @unchecked Sendable {}
extension Publishers.Multicast: @unchecked Sendable {}
extension Publishers.MakeConnectable: @unchecked Sendable {}
extension AnyPublisher: @unchecked Sendable {}
#endif
