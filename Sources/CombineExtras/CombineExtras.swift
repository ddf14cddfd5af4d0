// CombineExtras: operators and publishers that Combine users keep writing themselves, built
// only on the public API of `Combine`, so the same code works on top of this package's
// Combine on Linux and on Apple's Combine elsewhere. Each operator lives in its own file in
// `Operators/` or `Publishers/`, with a doc comment and a marble line (`-` one tick, letters
// values, `|` finished, `#` failure).
import Combine
