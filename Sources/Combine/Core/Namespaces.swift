/// A namespace for types that serve as publishers.
///
/// The operators of ``Publisher`` return the types declared here, such as
/// `Publishers.Map` and `Publishers.Sequence`.
public enum Publishers {}

/// A namespace for types that serve as subscribers.
public enum Subscribers {}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {}
