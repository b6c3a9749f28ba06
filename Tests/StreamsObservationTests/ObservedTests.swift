import Foundation
import Observation
import Streams
import StreamsObservation
import TestSupport
import Testing

/// A view model's outputs, each one observable state, as a SwiftUI model would hold them.
@MainActor
private final class TwoOutputs {
    let title: Observed<String>
    let count: Observed<Int>

    init(title: Driver<String>, count: Signal<Int>) {
        self.title = Observed(title, initial: "")
        self.count = Observed(count, initial: 0)
    }
}

@MainActor @Suite(.resourceCheck) struct ObservedTests {
    @Test func aReaderIsInvalidatedOncePerElementOfTheOutputItReadsAndNeverForAnother() {
        let title = BehaviorRelay(value: "Cart")
        let count = PublishRelay<Int>()
        let state = TwoOutputs(title: title.asDriver(), count: count.asSignal())
        let titleView = BodyReader { state.title.value }
        let countView = BodyReader { "\(state.count.value) pizzas" }
        #expect(titleView.output == "Cart")                 // the driver's replay, at once
        #expect(countView.output == "0 pizzas")             // the initial value: nothing sent yet

        for (index, text) in ["Cart (1)", "Cart (2)", "Cart (2)"].enumerated() {
            title.accept(text)
            #expect(titleView.invalidations == index + 1)   // an equal element is an element too
            titleView.render()
            countView.render()
        }
        #expect(titleView.output == "Cart (2)")
        #expect(countView.invalidations == 0)

        count.accept(1)
        count.accept(2)                                     // two elements before the next frame
        #expect(countView.invalidations == 1)
        #expect(countView.render() == "2 pizzas")
        count.accept(3)
        #expect(countView.invalidations == 2)
        #expect(countView.render() == "3 pizzas")
        #expect(titleView.invalidations == 3)
        #expect(titleView.offMainActor == 0 && countView.offMainActor == 0)
    }

    @Test func elementsSentOnAnotherThreadChangeTheStateOnTheMainActorOnly() async throws {
        let relay = BehaviorRelay(value: 0)
        let state = relay.asDriver().observed(initial: -1)
        let view = BodyReader { state.value }
        try await onAnotherThread { relay.accept(1) }
        // The driver queued the element for the main scheduler: nothing changed off the main actor.
        #expect(view.invalidations == 0)
        #expect(state.value == 0)
        MainScheduler.drain()
        #expect(view.invalidations == 1)
        #expect(view.offMainActor == 0)
        #expect(view.render() == 1)
    }

    @Test func aDrainOffTheMainActorHandsTheElementToTheMainActor() async throws {
        let relay = BehaviorRelay(value: 0)
        let state = Observed(relay.asDriver(), initial: -1)
        let view = BodyReader { state.value }
        // Another thread sends, then drains the main scheduler itself (a program may): the
        // element reaches the state through the main queue, before this test resumes there.
        try await onAnotherThread {
            relay.accept(7)
            MainScheduler.drain()
        }
        await Task.yield()
        #expect(view.invalidations == 1)
        #expect(view.offMainActor == 0)
        #expect(state.value == 7)
    }

    @Test func aSignalsStateShowsItsLatestElement() {
        let taps = PublishRelay<String>()
        let state = taps.asSignal().observed(initial: "none")
        let view = BodyReader { state.value }
        taps.accept("Margherita")
        #expect(view.invalidations == 1)
        #expect(view.render() == "Margherita")
    }

    @Test func theSubscriptionEndsWithTheStateAndNothingReachesAReaderAfterwards() {
        let relay = BehaviorRelay(value: 0)
        let before = Resources.total
        final class Holder { var state: Observed<Int>? }
        let holder = Holder()
        holder.state = Observed(relay.asDriver(), initial: -1)
        weak let released = holder.state
        let view = BodyReader { holder.state?.value }
        #expect(view.output == 0)
        #expect(Resources.total > before)

        holder.state = nil
        #expect(released == nil)
        #expect(Resources.total == before)
        relay.accept(1)
        MainScheduler.drain()
        #expect(view.invalidations == 0)
    }
    // A driver built while the sharing scheduler is a background queue's delivers there: every
    // element reaches the state off the main actor and takes the hop through the main queue.

    @Test func elementsDeliveredOffTheMainActorReachTheStateOnTheMainActorInOrder() async throws {
        let relay = BehaviorRelay(value: 0)
        let state = Observed(backgroundDriver(relay), initial: -1)
        let view = BodyReader { state.value }
        try await waitOnMainActor { state.value == 0 }      // the replay, handed over too
        #expect(view.invalidations == 1)
        view.render()

        for element in 1...3 { relay.accept(element) }
        // Delivered on the queue, queued for the main actor: nothing changed here yet.
        #expect(state.value == 0)
        #expect(view.invalidations == 1)
        try await waitOnMainActor { state.value == 3 }
        #expect(view.invalidations == 2)                    // one invalidation before the next frame
        #expect(view.offMainActor == 0)
        #expect(view.render() == 3)
    }

    @Test func anElementHandedToTheMainQueueIsDroppedWhenTheStateIsReleasedMeanwhile() async throws {
        let relay = BehaviorRelay(value: 0)
        let driver = backgroundDriver(relay)
        final class Holder { var state: Observed<Int>? }
        let holder = Holder()
        holder.state = Observed(driver, initial: -1)
        weak let released = holder.state
        let view = BodyReader { holder.state?.value }
        try await waitOnMainActor { holder.state?.value == 0 }
        #expect(view.invalidations == 1)                    // the replay
        #expect(view.render() == 0)

        // A second observer of the shared driver, after the state's: once it has the element,
        // the state's observer has handed it to the main queue.
        let handedOver = DispatchSemaphore(value: 0)
        let probe = driver.drive(onNext: { @Sendable element in
            if element == 1 { handedOver.signal() }
        })
        relay.accept(1)
        handedOver.wait()                                   // holding the main actor meanwhile
        holder.state = nil
        #expect(released == nil)
        await mainQueueRan()                                // the element's turn has come and gone
        #expect(view.invalidations == 1)
        probe.dispose()
    }
}

/// A driver of `relay` that delivers on a serial background queue.
private func backgroundDriver(_ relay: BehaviorRelay<Int>) -> Driver<Int> {
    let background = SerialDispatchQueueScheduler(queue: DispatchQueue(label: "ObservedTests.background"), internalSerialQueueName: "ObservedTests.background")
    var driver: Driver<Int>?
    SharingScheduler.mock(scheduler: background) { driver = relay.asDriver() }
    return driver!
}

/// Lets the main actor run what the main queue holds until `condition` holds (at most 5 s).
@MainActor
private func waitOnMainActor(_ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(5)
    while !condition() {
        try #require(Date() < deadline, "timed out")
        await mainQueueRan()
    }
}

/// Returns once the main queue has run every block queued before the call.
@MainActor
private func mainQueueRan() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
    }
}

