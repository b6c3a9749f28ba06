@testable import Streams
import Testing

/// `DeliveryQueue`, the one "queue under the lock, one thread drains" mechanism of the
/// serialising sinks, driven with no thread: who delivers, and what the deliverer takes.
@Suite struct DeliveryQueueTests {
    @Test func theFirstClaimDeliversAndLaterItemsWaitForItInOrder() {
        var queue = DeliveryQueue<Int>()
        let first = queue.claim()
        #expect(first)                       // nobody delivered: the caller does
        let second = queue.claim()
        #expect(!second)                     // it queues instead
        queue.append(1)
        queue.append(2)
        let idle = queue.finishIfEmpty()
        #expect(!idle)
        let batch = queue.takeAll()
        #expect(batch == [1, 2])
        #expect(!queue.hasItems)
        let done = queue.finishIfEmpty()
        #expect(done)                        // nothing left: the queue is idle again
        #expect(!queue.isDraining)
        let again = queue.claim()
        #expect(again)
    }

    @Test func swappingABatchKeepsOrderAndEmptiesTheQueue() {
        var queue = DeliveryQueue<String>()
        _ = queue.claim()
        queue.append("a")
        queue.append("b")
        var batch: [String] = []
        queue.swapBatch(&batch)
        #expect(batch == ["a", "b"])
        #expect(!queue.hasItems)
        queue.append("c")                    // queued while the batch is delivered
        batch.removeAll(keepingCapacity: true)
        queue.swapBatch(&batch)
        #expect(batch == ["c"])
    }

    @Test func stoppingDropsTheItemsAndFreesTheDeliverersRole() {
        var queue = DeliveryQueue<Int>()
        _ = queue.claim()
        queue.append(1)
        queue.stop()
        #expect(!queue.hasItems && !queue.isDraining)
        let claim = queue.claim()
        #expect(claim)
    }
}
