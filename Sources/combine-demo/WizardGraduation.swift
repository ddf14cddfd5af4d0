// SPDX-License-Identifier: Apache-2.0
import Combine
import Foundation

/// The team's scenarios document (docs/SCENARIOS.md §1), with the real `NotificationCenter`:
/// `merlin` posts `graduated` with its new grade in `userInfo["NewGrade"]`; `compactMap`
/// reads it, `filter` keeps grades of 5 and more, `prefix(3)` takes three and finishes,
/// `assign` writes `merlin.grade`.
final class Wizard {
    var grade: Int {
        didSet { print("  merlin.grade = \(grade)") }
    }

    init(grade: Int) {
        self.grade = grade
    }
}

extension Notification.Name {
    static let graduated = Notification.Name("graduated")
}

func wizardGraduation() {
    let merlin = Wizard(grade: 0)
    let center = NotificationCenter.default

    print("- with operators:")
    let cancellable = center.publisher(for: .graduated, object: merlin)
        .compactMap { $0.userInfo?["NewGrade"] as? Int }
        .filter { $0 >= 5 }
        .prefix(3)
        .assign(to: \.grade, on: merlin)

    for userInfo: [String: Any] in [
        ["NewGrade": 4], ["NewGrade": "six"], ["NewGrade": 5], [:], ["NewGrade": 6], ["NewGrade": 7], ["NewGrade": 8],
    ] {
        print("  post \(userInfo)")
        center.post(name: .graduated, object: merlin, userInfo: userInfo)
    }
    print("  (prefix(3) finished after three grades: the last post changed nothing)")
    print("  a graduation of another wizard is not merlin's:")
    center.post(name: .graduated, object: Wizard(grade: 0), userInfo: ["NewGrade": 9])
    cancellable.cancel()

    print("- with the explicit types:")
    let gradePublisher = Publishers.Map(upstream: center.publisher(for: .graduated, object: merlin)) { note in
        note.userInfo?["NewGrade"] as? Int ?? 0
    }
    let gradeSubscriber = Subscribers.Assign(object: merlin, keyPath: \.grade)
    gradePublisher.subscribe(gradeSubscriber)
    print("  post [\"NewGrade\": 9]")
    center.post(name: .graduated, object: merlin, userInfo: ["NewGrade": 9])
    gradeSubscriber.cancel()
    print("  cancelled; post [\"NewGrade\": 10]")
    center.post(name: .graduated, object: merlin, userInfo: ["NewGrade": 10])
    print("  merlin.grade is still \(merlin.grade)")
}
