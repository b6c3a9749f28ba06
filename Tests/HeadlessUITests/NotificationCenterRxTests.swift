import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct NotificationCenterRxTests {
    @Test func notificationsArriveWhileSubscribedOnly() {
        let center = NotificationCenter()
        let name = Notification.Name("cartChanged")
        let sender = NSObject()
        var received: [String] = []
        let notifications: Observable<Notification> = center.rx.notification(name, object: sender)
        let subscription = notifications.subscribe(onNext: { (notification: Notification) in
            let pizza = notification.userInfo?["pizza"] as? String
            received.append(pizza ?? "?")
        })
        center.post(name: name, object: sender, userInfo: ["pizza": "Margherita"])
        center.post(name: name, object: NSObject(), userInfo: ["pizza": "from another sender"])
        center.post(name: Notification.Name("other"), object: sender, userInfo: ["pizza": "another name"])
        subscription.dispose()
        center.post(name: name, object: sender, userInfo: ["pizza": "after dispose"])
        #expect(received == ["Margherita"])
    }
}
