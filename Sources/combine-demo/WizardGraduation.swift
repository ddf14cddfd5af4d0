import Combine

/// SCENARIOS.md §1. A `PassthroughSubject` of user-info dictionaries stands in for the
/// NotificationCenter publisher of the `graduated` notification.
final class Wizard {
    var grade: Int {
        didSet { print("  merlin.grade = \(grade)") }
    }

    init(grade: Int) {
        self.grade = grade
    }
}

func wizardGraduation() {
    let merlin = Wizard(grade: 0)
    let graduated = PassthroughSubject<[String: Any], Never>()

    print("- with operators:")
    let cancellable =
        graduated
        .compactMap { $0["NewGrade"] as? Int }
        .filter { $0 >= 5 }
        .prefix(3)
        .assign(to: \.grade, on: merlin)

    for userInfo: [String: Any] in [
        ["NewGrade": 4], ["NewGrade": "six"], ["NewGrade": 5], [:], ["NewGrade": 6], ["NewGrade": 7], ["NewGrade": 8],
    ] {
        print("  post \(userInfo)")
        graduated.send(userInfo)
    }
    print("  (prefix(3) finished after three grades: the last post changed nothing)")
    cancellable.cancel()

    print("- with the explicit types:")
    let notifications = PassthroughSubject<[String: Any], Never>()
    let gradePublisher = Publishers.Map(upstream: notifications) { userInfo in
        userInfo["NewGrade"] as? Int ?? 0
    }
    let gradeSubscriber = Subscribers.Assign(object: merlin, keyPath: \.grade)
    gradePublisher.subscribe(gradeSubscriber)
    print("  post [\"NewGrade\": 9]")
    notifications.send(["NewGrade": 9])
    gradeSubscriber.cancel()
    print("  cancelled; post [\"NewGrade\": 10]")
    notifications.send(["NewGrade": 10])
    print("  merlin.grade is still \(merlin.grade)")
}
