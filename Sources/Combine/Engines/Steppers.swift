// SPDX-License-Identifier: Apache-2.0

// Steppers (see SteppingSubscriber.swift) that serve more than one operator; an operator's own
// stepper lives in the operator's file.

/// An error-throwing transform to an optional: `nil` skips, a value is emitted, a thrown
/// error fails. The stepper of `tryFilter` and `tryCompactMap`.
@usableFromInline
struct TryTransformStepper<Input, Output>: ValueStepper {
    @usableFromInline let transform: (Input) throws -> Output?

    @inlinable
    init(transform: @escaping (Input) throws -> Output?) {
        self.transform = transform
    }

    @inlinable
    func step(_ input: Input) -> ValueStep<Output, any Error> {
        do {
            guard let output = try transform(input) else { return .skip }
            return .emit(output)
        } catch {
            return .fail(error)
        }
    }
}

/// The stepper of `drop(while:)` and `prefix(while:)` and their `try` forms.
@usableFromInline
struct WhileStepper<Element, Failure: Error>: ValueStepper {
    @usableFromInline
    enum Mode {
        /// Skip while the predicate holds, then pass everything.
        case drop
        /// Pass while the predicate holds, then finish.
        case prefix
    }

    @usableFromInline let mode: Mode
    @usableFromInline let predicate: (Element) -> Result<Bool, Failure>
    @usableFromInline var predicateDone = false

    @inlinable
    init(mode: Mode, predicate: @escaping (Element) -> Result<Bool, Failure>) {
        self.mode = mode
        self.predicate = predicate
    }

    @inlinable
    mutating func step(_ input: Element) -> ValueStep<Element, Failure> {
        if predicateDone { return .emit(input) }
        switch (predicate(input), mode) {
        case (.failure(let error), _):
            return .fail(error)
        case (.success(true), .drop):
            return .skip
        case (.success(false), .drop):
            predicateDone = true
            return .emit(input)
        case (.success(true), .prefix):
            return .emit(input)
        case (.success(false), .prefix):
            return .finish
        }
    }
}
