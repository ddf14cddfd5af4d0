// SPDX-License-Identifier: Apache-2.0
// CombineExtras: operators and publishers that Combine users keep writing themselves, most with
// CombineExt's names and signatures (README.md lists what differs), built only on the public
// API of `Combine`, so the same code works on top of this package's Combine on Linux and on
// Apple's Combine elsewhere.
//
// Layout (each public operator or type in its own file, with a doc comment and a marble line:
// `-` one tick, letters values, `|` finished, `#` failure):
// - Operators/   operators on `Publisher` and on collections of publishers (amb,
//                withLatestFrom, flatMapLatest, concatMap, materialize, retry(_:when:),
//                Collection.merge/zip/combineLatest, ...), with their `Publishers` types
// - Publishers/  sources: `Publishers.Create` / `AnyPublisher.create`, `Publishers.Interval`
// - Subjects/    `ReplaySubject` (and `share(replay:)` in Operators/ShareReplay.swift)
// - Relays/      the `Relay` protocol, `PassthroughRelay`, `CurrentValueRelay`, and the
//                subject both relays wrap (`RelaySubject`)
// - Models/      `Event` / `EventConvertible`, `ObjectOwnership`
// - Internal/    shared machinery: `Lock`, `ValueQueue`, `DownstreamQueue` (a demand buffer
//                delivering one call at a time, no lock held while calling out), the
//                `CombiningMany` engine of the collection zip/combineLatest, `erased(with:)`
import Combine
