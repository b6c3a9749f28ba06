import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct LoadingStateTests {
    @Test func backgroundFollowsTheLoadState() {
        let table = TableView(height: 132)
        let state = BehaviorSubject(value: ListLoadState.loading)
        let retries = PublishSubject<Void>()
        var retried = 0
        let bag = DisposeBag()
        retries.subscribe(onNext: { retried += 1 }).disposed(by: bag)
        Headless.run { state.bind(to: table.rx.loadState(retry: retries)).disposed(by: bag) }
        #expect(table.render() == "TableView 0 rows, offset 0\n  SkeletonView ░░░░░░ ×3 'Loading'")
        Headless.run { state.onNext(.failed(message: "No connection")) }
        #expect(table.render() == """
        TableView 0 rows, offset 0
          NetworkErrorView
            Label "No connection"
            Button [Retry]
        """)
        let errorView = table.backgroundView as? NetworkErrorView
        errorView?.retryButton.tap()
        #expect(retried == 1)
        Headless.run { state.onNext(.loaded) }
        #expect(table.backgroundView == nil)
    }
}
