// SPDX-License-Identifier: Apache-2.0
/// A class whose `objectWillChange` publisher announces each change before it happens.
///
/// A class that adopts the protocol without declaring `objectWillChange` gets the default
/// ``objectWillChange-5gopl``: one ``ObservableObjectPublisher`` per object, which every
/// `@Published` property of the object — its own and those it inherits — signals before
/// its value changes.
///
/// ```swift
/// final class Contact: ObservableObject {
///     @Published var name: String
///     @Published var age: Int
///
///     init(name: String, age: Int) {
///         self.name = name
///         self.age = age
///     }
/// }
///
/// let john = Contact(name: "John Appleseed", age: 24)
/// let cancellable = john.objectWillChange.sink { _ in print("\(john.age) will change") }
/// john.age += 1   // prints "24 will change"; john.age is 25 afterwards
/// ```
public protocol ObservableObject: AnyObject {
    /// The type of `objectWillChange`: ``ObservableObjectPublisher`` unless the class declares
    /// a publisher of its own.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// The publisher that signals each change of the object just before it is made.
    ///
    /// ```swift
    /// let cancellable = model.objectWillChange.sink { _ in print("about to change") }
    /// ```
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The object's change signal, sent before each change: the same instance on every
    /// access, for as long as the object lives.
    ///
    /// The first access finds the object's `@Published` properties (its own and its
    /// superclasses') by reflection and connects each of them to the publisher; from then on
    /// every change of one of them sends it before the property's subscribers receive the
    /// new value. An object without `@Published` properties gets a publisher of its own too,
    /// which only explicit ``ObservableObjectPublisher/send()`` calls signal.
    ///
    /// ```swift
    /// let model = Model()
    /// #expect(model.objectWillChange === model.objectWillChange)
    /// ```
    public var objectWillChange: ObservableObjectPublisher {
        var shared: ObservableObjectPublisher?
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? any ObjectWillChangeConnectable {
                    shared = property.connectObjectWillChange(shared)
                }
            }
            mirror = current.superclassMirror
        }
        return shared ?? ObjectWillChangeTable.shared.publisher(for: self)
    }
}

/// A stored property that signals its object's `objectWillChange` before it changes:
/// `@Published`.
protocol ObjectWillChangeConnectable {
    /// Connects the property to `candidate` (or to a new publisher when `nil`) unless it is
    /// already connected, and returns the publisher it is connected to.
    func connectObjectWillChange(_ candidate: ObservableObjectPublisher?) -> ObservableObjectPublisher
}
