// SPDX-License-Identifier: Apache-2.0
import Combine

// Links GRDB without calling it: GRDB's own objects refer to its publishers, which exist only if
// every file of GRDB saw the same answer to `canImport(Combine)`.
var total = 0
let cancellable = [1, 2, 3].publisher.reduce(0, +).sink { total = $0 }
cancellable.cancel()
print("ListsGRDB: \(total)")
