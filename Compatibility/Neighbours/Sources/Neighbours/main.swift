// SPDX-License-Identifier: Apache-2.0
print("GRDB:", (try? grdbObservation()) ?? "failed")
print("combine-schedulers:", schedulers())
print("coders:", coders())
print("OpenCombine code:", openCombineCode())
