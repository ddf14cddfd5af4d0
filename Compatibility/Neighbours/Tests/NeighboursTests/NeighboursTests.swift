// SPDX-License-Identifier: Apache-2.0
import NeighbourChecks
import Testing

// The service's own tests, built by `swift test` from a clean folder: each neighbour's Combine part.
@Suite struct NeighboursTests {
    @Test func grdbPublishesObservedValues() throws {
        #expect(try grdbObservation() == "[] [ada] [ada,grace]")
    }

    @Test func combineSchedulersDriveOurOperators() {
        #expect(schedulers() == "debounce [] then [2], immediate delay [3]")
    }

    @Test func codersAreTopLevelCoders() {
        #expect(coders() == #"YAML ["(1,2)"], XML ["(3,4)"]"#)
    }

    @Test func mainQueueDependencyIsOverridable() {
        #expect(mainQueueDependency() == "after 1 s [], after 2 s [1]")
    }

    @Test func routeAwaitsAFuture() async throws {
        #expect(try await serverRoute() == "hello from a Future")
    }
}
