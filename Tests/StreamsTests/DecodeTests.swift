import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct DecodeTests {
    struct Topping: Codable, Equatable { var name: String; var vegetarian: Bool }

    @Test func decodesEachDataElementWithTheGivenDecoder() throws {
        let json = [#"{"name":"basil","vegetarian":true}"#, #"{"name":"salami","vegetarian":false}"#].map { Data($0.utf8) }
        var toppings: [Topping] = []
        _ = Observable.from(json).decode(type: Topping.self, decoder: JSONDecoder()).subscribe(onNext: { toppings.append($0) })
        #expect(toppings == [Topping(name: "basil", vegetarian: true), Topping(name: "salami", vegetarian: false)])

        let plist = try PropertyListEncoder().encode(Topping(name: "olive", vegetarian: true))
        var decoded: Topping?
        _ = Observable.just(plist).decode(type: Topping.self, decoder: PropertyListDecoder()).subscribe(onNext: { decoded = $0 })
        #expect(decoded == Topping(name: "olive", vegetarian: true))
    }

    @Test func dataThatDoesNotDecodeEndsTheSequenceWithTheDecodersError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Data(#"{"name":"basil","vegetarian":true}"#.utf8)), .next(220, Data("{".utf8)), .next(230, Data("[]".utf8)), .completed(240),
        ])
        let res = scheduler.start { xs.decode(type: Topping.self, decoder: JSONDecoder()).map(\.name) }
        #expect(res.events.count == 2)
        #expect(res.events.first == .next(210, "basil"))
        guard case .error(let error)? = res.events.last?.value else {
            Issue.record("expected an error, got \(res.events)")
            return
        }
        #expect(error is DecodingError)
        #expect(res.events.last?.time == 220)
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func aDecoderOfYourOwnConformsToDataDecoder() {
        struct Reversing: DataDecoder {
            func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item {
                try JSONDecoder().decode(type, from: Data(data.reversed()))
            }
        }
        var decoded: [Int] = []
        _ = Observable.just(Data("]3,2,1[".utf8)).decode(type: [Int].self, decoder: Reversing()).subscribe(onNext: { decoded = $0 })
        #expect(decoded == [1, 2, 3])
    }
}
