// `import Combine` brings in the Foundation-free core and, in this module, the
// integration with Dispatch and Foundation (schedulers, NotificationCenter, URLSession).
@_exported import CombineCore
