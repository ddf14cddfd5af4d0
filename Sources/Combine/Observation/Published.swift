// SPDX-License-Identifier: Apache-2.0
/// The property wrapper behind `@Published`: it stores a class property's value and publishes
/// each new one.
///
/// Marking a property of a class with `@Published` creates a publisher of the property,
/// reached with the `$` prefix. The publisher emits the current value when a subscriber
/// first asks for values, then every new value:
///
/// ```swift
/// final class Weather {
///     @Published var temperature: Double
///     init(temperature: Double) { self.temperature = temperature }
/// }
///
/// let weather = Weather(temperature: 20)
/// let cancellable = weather.$temperature.sink { print("Temperature now: \($0)") }
/// weather.temperature = 25
/// // Prints "Temperature now: 20.0", then "Temperature now: 25.0"
/// ```
///
/// Publishing happens in the property's `willSet`: subscribers receive the new value
/// before the property holds it, so reading `weather.temperature` inside the sink above
/// gives `20.0` the second time too. When the class is an ``ObservableObject`` with the
/// default ``ObservableObject/objectWillChange-5gopl``, a change first signals
/// `objectWillChange`, then publishes the value.
///
/// `@Published` works on properties of classes only: it reaches its storage through the
/// enclosing instance.
@propertyWrapper
public struct Published<Value> {
    @usableFromInline var box: PublishedBox<Value>

    /// Creates the wrapper from the value a `@Published` declaration is initialized with.
    ///
    /// Swift calls it for a declaration with an initial value:
    ///
    /// ```swift
    /// @Published var username = ""
    /// ```
    ///
    /// - Parameter wrappedValue: The publisher's initial value.
    public init(wrappedValue: Value) {
        box = PublishedBox(wrappedValue)
    }

    /// Creates the wrapper holding `initialValue`, for code that initializes the storage
    /// (`_name`) directly.
    ///
    /// ```swift
    /// _username = Published(initialValue: "")
    /// ```
    ///
    /// - Parameter initialValue: The publisher's initial value.
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// The type of publisher that a `@Published` property projects.
    ///
    /// It emits the property's current value on a subscriber's first request, then every
    /// new value before the property holds it. It never completes.
    ///
    /// ```swift
    /// let cancellable = model.$username.sink { print("username:", $0) }
    /// ```
    public struct Publisher: Combine.Publisher {
        /// The kind of values published by this publisher: the property's values.
        public typealias Output = Value

        /// The kind of errors this publisher might publish: it never fails.
        public typealias Failure = Never

        @usableFromInline let box: PublishedBox<Value>

        /// Attaches the specified subscriber to this publisher.
        ///
        /// - Parameter subscriber: Receives the current value on its first request, then
        ///   each new value while it has demand.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            box.subject.receive(subscriber: subscriber)
        }
    }

    /// The property's publisher, reached with the `$` prefix.
    ///
    /// ```swift
    /// model.$username.map(\.count).assign(to: &model.$usernameLength)
    /// ```
    ///
    /// Apple declares the getter `mutating` (its publisher is made on first use); this one
    /// only reads the box made with the property, and a `mutating` getter would make every
    /// `model.$username` a write of the object's storage: two threads subscribing at once
    /// would race (ThreadSanitizer reports it). Code written for Apple's declaration compiles
    /// unchanged against this one.
    public var projectedValue: Publisher {
        get { Publisher(box: box) }
        // As Apple's, assigning a publisher to `$property` changes nothing: the property keeps
        // its own value and subscribers (`a.$x = b.$x` leaves `a.x` as it was).
        set {}
    }

    /// Unavailable: `@Published` reaches its value through the enclosing class instance.
    ///
    /// ```swift
    /// struct Settings { @Published var on = false }   // error: only on classes
    /// ```
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The value of a `@Published` property of a class instance, used by the compiler for
    /// every read and write of the property.
    ///
    /// Setting it signals the object's `objectWillChange` (when its default one has been
    /// requested), then sends the new value to the property's subscribers, then stores it.
    ///
    /// ```swift
    /// weather.temperature = 25   // goes through this subscript
    /// ```
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].box.value }
        set { object[keyPath: storageKeyPath].box.publish(newValue) }
    }
}

extension Published: ObjectWillChangeConnectable {
    func connectObjectWillChange(_ candidate: ObservableObjectPublisher?) -> ObservableObjectPublisher {
        box.connectObjectWillChange(candidate)
    }
}
