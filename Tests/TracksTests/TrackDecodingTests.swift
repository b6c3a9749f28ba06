import Foundation
import TestSupport
import Testing
@testable import Tracks

@MainActor @Suite(.resourceCheck) struct TrackDecodingTests {
    @Test func decodesTheITunesShape() throws {
        let json = #"""
        {"resultCount": 2, "results": [
          {"wrapperType": "track", "trackName": "Paper Orchard", "artistName": "Juniper Vale",
           "shortDescription": "A hazy folk ballad.", "artworkUrl60": "https://tracks.example/artwork/1.png",
           "trackPrice": 1.29},
          {"artistName": "Moth Radio", "artworkUrl60": "/artwork/2.png"}
        ]}
        """#
        let response = try TrackSearchResponse.decode(Data(json.utf8), relativeTo: URL(string: "http://127.0.0.1:8080/search?term=x")!)
        #expect(response.resultCount == 2)
        #expect(response.results == [
            Track(trackName: "Paper Orchard", artistName: "Juniper Vale", shortDescription: "A hazy folk ballad.", artworkUrl60: URL(string: "https://tracks.example/artwork/1.png")!),
            Track(trackName: nil, artistName: "Moth Radio", shortDescription: nil, artworkUrl60: URL(string: "http://127.0.0.1:8080/artwork/2.png")!),
        ])
    }

    @Test func decodesTheFixtureCatalogue() throws {
        let tracks = try TrackSearchResponse.decode(TracksFixtures.searchJSON).results
        #expect(tracks.count == 200)
        #expect(tracks == TracksFixtures.tracks)
        #expect(tracks[7].trackName == "Say \"When\"")
        #expect(tracks[39].trackName == nil)
        #expect(tracks.contains { $0.artistName == "Café Nocturne" })
        #expect(tracks[12].shortDescription == nil)
        #expect(tracks[3].artworkUrl60 == URL(string: "https://tracks.example/artwork/3.png"))
    }

    @Test(arguments: [
        (#"<html>502 Bad Gateway</html>"#, TrackDecodingError.notJSON),
        (#"{"results": [{"artistName": "A"}"#, .notJSON),
        (#"{"resultCount": 0}"#, .missingResults),
        (#"[{"artistName": "A"}]"#, .missingResults),
        (#"{"results": {"artistName": "A"}}"#, .missingResults),
        (#"{"results": [{"artistName": "A"}, {"artistName": "B"}, {"trackName": "C"}]}"#, .missingField(index: 2, field: "artistName")),
        (#"{"results": [{"artistName": null}]}"#, .missingField(index: 0, field: "artistName")),
        (#"{"results": [{"artistName": 42}]}"#, .wrongType(index: 0, field: "artistName")),
        (#"{"results": [{"artistName": "A"}, {"artistName": "B", "trackName": ["x"]}]}"#, .wrongType(index: 1, field: "trackName")),
        (#"{"results": [{"artistName": "A", "artworkUrl60": ""}]}"#, .badURL(index: 0, value: "")),
        (#"{"results": [{"artistName": "A", "artworkUrl60": "not a url"}]}"#, .badURL(index: 0, value: "not a url")),
        (#"{"results": [{"artistName": "A", "artworkUrl60": "/artwork/1.png"}]}"#, .badURL(index: 0, value: "/artwork/1.png")),
        (#"{"results": [{"artistName": "A"}, "B"]}"#, .malformedResult(index: 1)),
    ])
    func aMalformedAnswerIsATypedError(json: String, expected: TrackDecodingError) {
        #expect(throws: expected) { try TrackSearchResponse.decode(Data(json.utf8)) }
    }

    /// Bodies of unclosed nesting around Foundation's 512-level limit (where its `JSONDecoder`
    /// on Linux traps, see the Mapper) are `notJSON` here: `JSONSerialization` throws.
    @Test(arguments: [511, 512, 513, 514, 2_000])
    func deeplyNestedAnswersAreNotJSONNeverATrap(depth: Int) {
        for body in [String(repeating: "[", count: depth), String(repeating: "{", count: depth)] {
            #expect(throws: TrackDecodingError.notJSON) { try TrackSearchResponse.decode(Data(body.utf8)) }
        }
    }

    @Test func errorsSayWhatAndWhere() {
        #expect(TrackDecodingError.missingField(index: 3, field: "artistName").description == #"result 3: "artistName" is missing"#)
        #expect(TrackDecodingError.badURL(index: 0, value: "x y").description == #"result 0: "artworkUrl60" is not a URL: x y"#)
        #expect(TrackDecodingError.notJSON.description == "the answer is not JSON")
    }

    @Test func rowsShowTitleArtistAndDescription() {
        let track = Track(trackName: "Paper Orchard", artistName: "Juniper Vale", shortDescription: "A hazy folk ballad.", artworkUrl60: nil)
        #expect(TrackRow(track: track) == TrackRow(title: "Paper Orchard — Juniper Vale", detail: "A hazy folk ballad.", artworkURL: nil))
        let untitled = Track(trackName: "", artistName: "Moth Radio", shortDescription: nil, artworkUrl60: TracksFixtures.artworkURL(4))
        #expect(TrackRow(track: untitled) == TrackRow(title: "Moth Radio", detail: "", artworkURL: TracksFixtures.artworkURL(4)))
    }
}
