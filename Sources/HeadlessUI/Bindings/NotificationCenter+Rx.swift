import Foundation
import Streams

extension Reactive where Base: NotificationCenter {
    /// The notifications posted with `name` (any name when `nil`) by `object` (any object when
    /// `nil`), from the time of the subscription until it is disposed. Each is delivered on the
    /// thread that posts it.
    ///
    ///     NotificationCenter.default.rx.notification(.cartChanged).subscribe(onNext: { … })
    ///
    /// - Parameters:
    ///   - name: The notification name to observe.
    ///   - object: The sender to observe.
    /// - Returns: The notifications; the sequence never completes.
    public func notification(_ name: Notification.Name?, object: AnyObject? = nil) -> Observable<Notification> {
        let center = UncheckedSendable(base)
        let sender = UncheckedSendable(object)
        return Observable.create { observer in
            let deliver = UncheckedSendable(observer)
            let token = center.value.addObserver(forName: name, object: sender.value, queue: nil) { notification in
                deliver.value.onNext(notification)
            }
            let registration = UncheckedSendable(token)
            return Disposables.create { center.value.removeObserver(registration.value) }
        }
    }
}
