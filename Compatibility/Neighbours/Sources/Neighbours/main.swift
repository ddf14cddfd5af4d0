// SPDX-License-Identifier: Apache-2.0
import NeighbourChecks

for line in await NeighbourChecks.lines() { print(line) }
