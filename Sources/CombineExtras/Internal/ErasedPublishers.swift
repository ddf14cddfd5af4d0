// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// This publisher followed by `others`, all type-erased: the array that the `with:` forms
    /// of `zip`, `combineLatest` and `amb` hand to their collection forms.
    func erased<Others: Collection>(with others: Others) -> [AnyPublisher<Output, Failure>]
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        [eraseToAnyPublisher()] + others.map { $0.eraseToAnyPublisher() }
    }
}
