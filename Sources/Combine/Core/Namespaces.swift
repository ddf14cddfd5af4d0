// SPDX-License-Identifier: Apache-2.0
/// The enclosing namespace of the concrete publisher types.
///
/// The operators of ``Publisher`` return the types declared here, such as
/// `Publishers.Map` and `Publishers.Sequence`.
public enum Publishers {}

/// The enclosing namespace of the concrete subscriber types, ``Subscribers/Demand`` and
/// ``Subscribers/Completion``.
public enum Subscribers {}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {}
