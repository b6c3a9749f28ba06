import Foundation
@testable import HeadlessUI
import Streams
import TestSupport
import Testing

/// PNG files and zlib streams made by Python's zlib (an independent encoder), with the
/// premultiplied pixels they must decode to.
enum Fixtures {
    static let rgbaAllFilters = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAUAAAAECAYAAABGM/VAAAAAFnRFWHRDb21tZW50AG1hZGUgYnkgZ2VuLnB5J8oW0wAAAC9JREFUeNoBVACr/wGlTcoAi25TAPwjuYAC+0gA8fL7gAKfRwwAbaEX/wVCSOmsx9B/erQexFLmAAAAMElEQVRDAAN3s0T/ipBlACLMXUwN4dF/h5kDgQSGoTWSks8I74oCMv+i0K3JBiYy/zSxJnxQkPxHAAAAAElFTkSuQmCC")!
    static let rgbaAllFiltersPixels: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 22, 111, 107, 128, 23, 109, 15, 128, 0, 0, 0, 0, 0, 0, 0, 0, 157, 92, 52, 255, 20, 13, 12, 105, 218, 160, 238, 255, 0, 0, 0, 0, 153, 253, 175, 255, 37, 60, 214, 255, 0, 0, 0, 0, 159, 173, 178, 254, 0, 0, 0, 0, 18, 90, 130, 145, 89, 6, 118, 128, 59, 252, 30, 255, 52, 99, 159, 200, 41, 85, 229, 255]
    static let rgbPaeth = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAYAAAADCAIAAAA/Y+msAAAAFnRFWHRDb21tZW50AG1hZGUgYnkgZ2VuLnB5J8oW0wAAACJJREFUeNoBOQDG/wRG3I6O2zSilmjkAEwduYLmgJgAAkrWvaNAG7lf8yMAAAAiSURBVOnIy8zJNfbNH2EiA2m86KXs0Qs13LRUgvCSUyscQDhLHHSlYhjQAAAAAElFTkSuQmCC")!
    static let rgbPaethPixels: [UInt8] = [70, 220, 142, 255, 212, 183, 194, 255, 118, 77, 42, 255, 90, 77, 118, 255, 119, 6, 248, 255, 93, 134, 144, 255, 2, 74, 214, 255, 189, 163, 64, 255, 27, 233, 200, 255, 203, 204, 201, 255, 53, 246, 205, 255, 31, 97, 34, 255, 106, 225, 83, 255, 56, 174, 26, 255, 52, 0, 77, 255, 51, 186, 13, 255, 36, 106, 192, 255, 76, 129, 177, 255]
    static let gray = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAAAAACMmsGiAAAAFnRFWHRDb21tZW50AG1hZGUgYnkgZ2VuLnB5J8oW0wAAAA5JREFUeNpj2vXJzprx51d2JqYP/y3/AAAAD0lEQVRltiG2jOtv5MUCAFNyB+mXBbUqAAAAAElFTkSuQmCC")!
    static let grayPixels: [UInt8] = [186, 186, 186, 255, 242, 242, 242, 255, 62, 62, 62, 255, 59, 59, 59, 255, 249, 249, 249, 255, 238, 238, 238, 255, 245, 245, 245, 255, 247, 247, 247, 255, 159, 159, 159, 255, 43, 43, 43, 255, 73, 73, 73, 255, 52, 52, 52, 255, 175, 175, 175, 255, 135, 135, 135, 255, 245, 245, 245, 255, 82, 82, 82, 255]
    static let grayAlpha = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAMAAAADCAQAAAD8IX00AAAAFnRFWHRDb21tZW50AG1hZGUgYnkgZ2VuLnB5J8oW0wAAAA9JREFUeNpj5s7cIr6xmFkz0ONtJx9pywAAAA9JREFU0B/miQabxB3/AQBPFggzGxD2nwAAAABJRU5ErkJggg==")!
    static let grayAlphaPixels: [UInt8] = [5, 5, 5, 105, 54, 54, 54, 75, 8, 8, 8, 152, 24, 24, 24, 133, 62, 62, 62, 85, 81, 81, 81, 114, 75, 75, 75, 114, 47, 47, 47, 122, 93, 93, 93, 116]
    static let palette8 = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAMAAABIdo1RAAAADFBMVEX/AAAA/wAAAP8KFB4iiCkEAAAAA3RSTlP/AICpVnMTAAAAFnRFWHRDb21tZW50AG1hZGUgYnkgZ2VuLnB5J8oW0wAAAAlJREFUeNpjYGBkYmZg1wxGRgAAAAlJREFUZmJkAAAARgANadgLggAAAABJRU5ErkJggg==")!
    static let palette8Pixels: [UInt8] = [255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 128, 128, 10, 20, 30, 255, 10, 20, 30, 255, 0, 0, 128, 128, 0, 0, 0, 0, 255, 0, 0, 255]
    static let palette2bit = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAUAAAACAgMAAADtBP7OAAAADFBMVEX/AAAA/wAAAP8KFB4iiCkEAAAAA3RSTlP/AICpVnMTAAAAFnRFWHRDb21tZW50AG1hZGUgYnkgZ2VuLnB5J8oW0wAAAAdJREFUeNpjkHZg+MBBk3MAAAAHSURBVNAAAAPtAcza04umAAAAAElFTkSuQmCC")!
    static let palette2bitPixels: [UInt8] = [255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 128, 128, 10, 20, 30, 255, 0, 0, 0, 0, 10, 20, 30, 255, 10, 20, 30, 255, 255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 128, 128]
    static let gradient64 = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHeAAAAFnRFWHRDb21tZW50AG1hZGUgYnkgZ2VuLnB5J8oW0wAAAHxJREFUeNrl0BFzAmAAANCvuyAIBkEQBEEwGARBEARBEASDIBgMBkEQBEEQBEEQBEEQBEEQBIMgCAaDwSAIgiAIgu7qhzx4f+BFQug+oiEEVSRE9YCYHhDXA170gIQekNQDUnpAWg/I6AFZPeBVD3jTA3J6QF4PKOgBRT2gpAeU9SLBpYoAAAB9SURBVICKHlDVA2p6wLseUNcDGnrAhx7wqQd86QFNPaClB7T1gI4e0NUDenpAXw8Y6AFDPWCkB4z1gIkeMNUDZnrAXA9Y6AFLPWClB6z1gI0e8K0HbPWAnR6w1wN+9IBfPeBPD/jXAw56wFEPOOkBZz3gogdc9YCbHnC3A54Tf76BoZUOSgAAAABJRU5ErkJggg==")!
    static let fixedHuffman = Data(base64Encoded: "eNrLSM3JyVfIQCcBaAMIsQ==")!
    static let dynamicHuffmanSource = Data(base64Encoded: "QkRDQUFDRENCQ0RDQ0FCQUJEQkNCREFEQ0FBREJEQkRDQUREREFCQkJBQkRCRENCQkFBQUJEQkJBQ0JDQkNDREJBQ0REQkJBREJBQkJCREFBQ0RBQUJCQ0FBREFBRENCQ0REQkNCREJEQUREQ0FCREFCQ0FCQ0JDQkRCQUREQkJCRERDREJDQ0FDQUNEREFEQ0NBQUJBQUNDQUJDQkRDREJEQ0FDQUJEQUNBQUNBQkFDQURBQ0RDQkFCQUJDQUJCQ0NCQ0RCQ0NBQ0FBQUJEQkRBREREQ0JCQ0JCRENBQkFBQ0RCQUFEQ0JDQURCQkNEQUNDQ0NCQUNCQ0JBQ0RBRENCQkFBQ0FCREFEQUNDQkFCRENEQkNCQURCQUJBQUFCQ0FEREFBQkRDQURBQUFEQ0FDQkJCREREQURDQUJBQkNDQ0JBREFEQ0FCRENDREREQUJDQURBQ0RBRENEQkJBQUJDQ0JDQUNCREREQUJBREREQ0JEQ0RDQUNBQ0NEQUJBQ0NDQUREQUNEQ0FDQUFDQkJDRENCQ0RBREJBQUREQkNEQUJCRERDQ0NDQ0RCQ0REQUJCQUJEQkRDRERCQkJBQkNBQ0JDQ0JBREREQkRDQ0FEQ0NCQkFDQkRERERDQUJBREREQUFERERCQUJCQkFEQUFBQkJBQ0JDREFBQUNCRENCQUFDRENDQkRCQkFEQ0FBQkREQUNCRENCREFDRENEQkFDQUJEQkNCQkRCQ0NBREJCRERBQkRBQkFCREFBQkREQ0FBQkNCQkRBQ0RDQ0RCQUFBQ0FDREFCRENDREFBREJDREJDQ0RBREJEQURBREFBQ0JBQ0NDQ0FDQ0NDQUFBQkFERERDRERCREJBQ0JCQ0NEQ0FCREJCREFBRENCREFBQ0FCQUREREJCQkREQkFDQ0NDQ0NDQkRCQkJCQkNCQ0FEQ0JCQURBQUFEQkRDQUNCQUFCQkFDQkRDQUFDQkFDQ0JBQkNBQkFDRENCQ0FCQUREQURBREJBQkRDRENDREFDQ0REQUNCRERCQURCREFBRENEQkJBQUJEQUNCQkNDQkJBQUREQkNCQURDQURBQkJEQkRCQkFEQkRDQUJCQkFBQ0FERENEQ0JERENEREJBQUREQkREQkREQUFCQ0RDQURBQUJBQ0FBREJBQUFCQkRDQkJBQ0NCQ0NEQkNEQkNCQ0NBQkJEQkNDREJDQUFDREFDRENDRENCQ0NBREJCQUNDQ0NBQUJCQ0REQ0FCREJBQUFBQ0NBQ0JEQ0JCQ0RCQkFCQkRBQUJDRENBQUNEREJCQUFBQURCQkJBQUFCQkRCREJDQUNBREFERERBREJCQUNCQUFDQ0FDRENDQkFBQkNCQkJDQkRDQkREREFBREJDQkRBQkJBQUFBQkNCQUFBQkFBQUFDQkFEQUJCQkFBQUFDREFCQUJDQ0NEQ0FDQ0NBQ0NEQ0FEQURBQ0RBQkFDQkRBQkNBQUNEQURCRENDQkNCQkRCQUFEQUNDQUREQURBQ0JDQ0RCREJEQkFDQ0JEQ0JERENCQkNEQkJDQ0JCQkNDQkJDQkNBQkFCREJCQ0NEQ0JBQUNCRERBQUREQkNEQUJDREFCRERCQkJBRERDQ0FEQkRCQ0REREFEQkNBRERBQUNCQkJDQURCREFDQ0REQkJEQUNBQ0NEREFBQUREQ0NBQkNEQkREQkJCQUJEQkJDRERDQkRDQkNEQ0RCREFDQ0JDQ0REREFDQkNEQUFDQkNBQUJBQ0NBQkJCRENCQkRCQUNCREJBREFBQ0RCQkREQUREQkRCREJBQkNERENEQ0REQUJDQUFBQ0FEREJBQkRCQ0FDQ0RCQ0RDRENBQ0NDRERDQ0NCREFDQkNDQkFBRERBRENBQUFCREFEQkFCQURCQUJBREFBQ0JDQ0NCREFDQURBREFBREREQUFEQkREQUFEQkJBREFBQUFCQUJEQUNCREJBQ0JBQ0REQ0FBQUFBQURDQ0JEQUNDRERCQkFDQkRERERDQ0NDQUNBQkNEQkREREJEQ0FDQ0NEQkFDQkJDRENBRERCQkNBRERCQ0FEREFDQUJEQ0NEQkJCQkFCQ0NDREJCQURDQUNEQUJDQUNDQUFBQkRCQ0NEQURCQ0FDQkJEQUFBQUNEREFEQUFDQ0JBREJEQkNCQkJBQ0NBQUFDREFBQkNBQkNEQURDQ0NEQUNEREJEQkJBREJBQkJBQ0JEQURBQURDQ0JEQUNCQ0JBQkRCREJDRERCQkFDQ0NCQ0RBQ0REQUJBQkRDQUNCQ0RDQkJBRENEQkFDQkFEQ0JEQUNCQ0RBREJDQkJCQkJCQUFEQ0JCQkJDQkFBREFDQ0NEQUFEREJDQkJDQUJDQUNEQUFDQkNEQUNBRERBQkFCQUJCQkFDQ0FBQUJDQURCREFDQUJBQ0FERENBQUFEQkJCQkREQkFEREFEQUNDREJDRENEQUNCQ0JEQUNBQkFDREJBQkJERERBQUFDQ0FBQ0FBREJBQ0FDQ0JBQUNBREJEQUJDRENDQkFDREJEQkNEQ0REQ0FCQ0JCRERBQ0JCQ0NEQ0NCQ0FBQkFDREFERENBQkJEQ0NCQkNBRENCREFBREFEREJEQ0FERERDQ0NDRERDQURERENCQ0JEREJBQ0NCQ0JEQUFBQ0RDQ0RERERDQUNEQUFCQURDREJCRERERENBQkNDQ0FDQkFDQ0RCQ0JCREJBQUNBREFBQ0FDREFBQUJCRENCQkRBQkJBQUFBQkREREFBQ0JCQ0NCQUNBQUNCRERBQUJEQURBQkJCQUJCQ0FEQ0RDREFCREJEQ0REQUJBQkJDREJBQ0RDQUNEQ0RBQURDQkRCRENDQkRBQ0FDQkJCQUJDQkREQkJDQ0JEREJDREJCREJDRENCREJCQUFDREFCQ0FEQUJCQ0JBQUNDQkFDQUJDQkRDQ0REQkNCQUNDREFEQkRDQUJDQUNCQURBQkRCQ0JEQUNCQkRDRENBQUNBQUJBQUNCQ0FEREJDQUNERENEQUJEQkRCQUNCQkJDQkFCQ0NEQUJDQkJEREJCQURCQ0NCQkJDQURCQkREQkFDQUNEQkFBQ0NCQUNEQUJDRERDQ0JBQUFEREFDQ0FERERCQ0FDQUNDQkFCQUFEQkNDQkJBQ0NEQkNDQkNCQ0NCQUFBREFCREREQkNBQkJCQkREQUFEREJCQ0FBREJDQUFEQ0FEQUJCRENBRENCREFDRERCREFBQ0NEQ0RCQ0NBQkJEQUJDRENCRERDQUJCQkFCQ0FCQ0RCREJBQURBREJBQUREQkJEQUJDQURCQUNBQUJEQ0FCREFCQUNCQ0NBQ0FCQ0NEQUNBQ0NBQUJDQ0JEQURBQURBQUNCQkNEQkNDREFBQ0JEREFBQUJEREJEREJBQ0NCQ0JBQkJDRENERENDQUNEQ0JBQkRBQkJDRENBQ0NCQUFCREFDQ0JCQUNDQ0JDRENBQ0NEQ0JCQ0JCQkFEREREQ0JBQkNDQ0NBQkFCQ0NEQ0RBRENCQ0NBQkNCQUJBRERCQ0FCQkFCQUFBQ0JBQkNBQ0FCQ0NBRERDQkFEQUFDRERDREFBQ0NBRENCQUFCQkJBQ0NEQ0JDQkNEQUNEQ0NDQkNBREFDQkJEQUFCQUFCQkNDQkJCQUNCRERCQ0REQkNBQUFBRENBQkREREJBQ0FDREJCQ0JDRENDREJCRENCQ0NBQ0FEQkJDREJBQkNBREJEQkNBQUJBQkNCQ0FCRERBRENEQ0FCQkFBQkJEQUFBQ0FBQURCREFCQkJBQ0RBQ0JCQUNCQUNDQUFCQURDQ0FDQURDQ0RDRERDRERCREREQkFCQ0RCQkFBQUFEQ0RDREFERENEQkRDQURDQ0FCQ0NEQ0RCQkFDQkJDQkJCREJBQ0RDREFEQkNEQUNDQ0RBQ0RDREFEREJCQUJDREJDQ0RDQUJBQ0FCQ0NDQ0JDREFEQUJCRENDQUREQ0FDRERDQ0JEQkJDQUJDQUFEREREREFBRERERERCQUREVGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZ1RoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2dUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nVGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZ1RoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2dUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nVGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZ1RoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2dUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nVGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZ1RoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2dUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nVGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZ1RoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2dUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nVGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZ1RoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2dUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nVGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZ1RoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2c=")!
    static let dynamicHuffman = Data(base64Encoded: "eNrtlll2XDcMRLfSWyGAJWQDGZzBTqLYjjN49WHdi9Z//qUjtV4/kmCxUCiwps/p6bp/ferUVNecvJ37fP/PzKli5E6rc/JU566o7rkPk6/34U6axLoTKsvvb8ISMCFvrPvvDmXlfXWysO7rO6NPJ9AJiIviNLMyNBm66wLzjlw8wA3UzkbZwvUAyz6BeX+zX/CUQC7EO/VGvktAH6ieiA0ylFMmnOdJxJw/gbNv4tyVwQxDgZA1frnQoUqEJ3EqAbJ1s6TEdkc4bufNDZAdfJXg5uKAevIERfnJt3w1E5B3iA2GycsOgSRnBr7JHoPkMGcwd3kKFBjqJqVJegVM3oMp6VUSBckTMGQxH5mcJRklSkCTSNmIhEhOjhOCIw+O3H6cpSTYi8M3TCIkMJw9A6S7tEVbyXGbQFKDUmrPh6rLjCIbFJBQB25JAmrwvFGjm5q1EU1tFuCGVEgU2lI5gd/lIZjMb1hRM2GQbGY1ubFukFlkDrNTlKEs9lK9JEUT0nIOlUF+CqQwxVZbhzBRu11CUzEIFmIMkIybuDLZY7IKfaF7QrBhHQ3ggFDRDxk87SHHgba8j/nOOQvQoVnmPbrZ3o33JA2WNqlIHDEUKp3XWkBaHHBQe1EU2c9CJQqpbPgYCw2BYHA9u54dLMdC6bOZQRBNLLyIHME4Gh3k1lbC7GGING35qwqt9Jjq5YtCrtmSPboIasNu/GBjp1kymxw/Fbv11yI6yIOfcZ1SWBMgT3twi0TbLhU6ELb8rY2V1sITnse5ei3WesYJR1FY2bgmXlHOpRWwdYCh7mf9bJXaJJYSja0WPMZObKqVnFDrgtce1iobO9DnkbSa69VNAeJsTuGVqOcV6VMzNhjYhAR8wdZgGsG5EzkFySGIZd7wcIxXFlp7LKu4S4tF3k+JbXekaDS1QD/zbMCteOwfvVYIEu1bt4dvLWztn9yX6K1FPMmpa0ivJT9bQEB+1h05Qg7gGgqwZvNSXgBwlLXs2nxSikewCUkBl0QgglVVomtL9Jq2j5ao12l7TUiHorWPjJdlin6pwVPPXoKgaLJQjuz66Q9S6OXAFFnD2N6sYeme9JCzi6XSuw9ToY2bSD19issPH9szNqGo/+CZs85/apvH2WZOmSLf7SZaKmApg9Jot6Zbf/OaYTXtJYKxzeGxJ61myBpn3YvU+EbhaoPP+tPhy5pGU/rC3n3GG5SXNborTNA37LyAPKzDNZEJ1xQ6dRl/S509z6yxMKF1E9UDqcfL1mv+yqvrIGZoGWVZ2x4wS7oKfgvXx8Z5LHQFTnHrp20dEawla7TPY9sFxVi21mj3ElJaa9kuRn9aN9olZRgvO1Kk26kWHUg1znoX5M/+C9Hf/Pzu8fHLL99/eHz36eXv3x8/vvzzeP/ltz8+P17+evfp8ecd/vXbr/8+fnj56W3q29S3qf9j6n8tsUhM")!
}

@MainActor @Suite(.resourceCheck) struct ImageTests {
    @Test(arguments: [
        ("rgbaAllFilters", Fixtures.rgbaAllFilters, 5, 4, Fixtures.rgbaAllFiltersPixels),
        ("rgbPaeth", Fixtures.rgbPaeth, 6, 3, Fixtures.rgbPaethPixels),
        ("gray", Fixtures.gray, 4, 4, Fixtures.grayPixels),
        ("grayAlpha", Fixtures.grayAlpha, 3, 3, Fixtures.grayAlphaPixels),
        ("palette8", Fixtures.palette8, 4, 2, Fixtures.palette8Pixels),
        ("palette2bit", Fixtures.palette2bit, 5, 2, Fixtures.palette2bitPixels),
    ])
    func decodesReferencePNGs(name: String, data: Data, width: Int, height: Int, pixels: [UInt8]) throws {
        let image = try Image(pngData: data, name: name)
        #expect(image.width == width)
        #expect(image.height == height)
        #expect(image.pixels == pixels)
        #expect(image.description == "[image \(name) \(width)×\(height)]")
    }

    @Test func decodesACompressedGradient() throws {
        let image = try Image(pngData: Fixtures.gradient64, name: "gradient")
        #expect(image.width == 64 && image.height == 64)
        for (x, y) in [(0, 0), (63, 0), (10, 20), (63, 63)] {
            #expect(image.pixel(x: x, y: y) == Image.Pixel(r: UInt8(x * 4), g: UInt8(y * 4), b: 128, a: 255))
        }
    }

    @Test func bitmapContextArithmetic() throws {
        let image = try Image(width: 3, height: 2, pixels: Array(0..<24), name: "bytes")
        #expect(image.bytesPerRow == 12)
        #expect(Image.bytesPerPixel == 4 && Image.bitsPerComponent == 8)
        #expect(image.byteIndex(x: 2, y: 1) == 20)
        #expect(image.pixel(x: 2, y: 1) == Image.Pixel(r: 20, g: 21, b: 22, a: 23))
        #expect(image.pixel(x: 0, y: 1) == Image.Pixel(r: 12, g: 13, b: 14, a: 15))
    }

    @Test func premultipliesAlpha() {
        #expect(Image.Pixel.straight(r: 255, g: 128, b: 0, a: 128) == Image.Pixel(r: 128, g: 64, b: 0, a: 128))
        #expect(Image.Pixel.straight(r: 200, g: 100, b: 50, a: 0) == Image.Pixel(r: 0, g: 0, b: 0, a: 0))
    }

    @Test func encoderRoundTripsEveryFilter() throws {
        var random = SeededRandom(seed: 42)
        for colorType in [PNGEncoder.ColorType.grayscale, .truecolor, .grayscaleAlpha, .truecolorAlpha] {
            let width = 7, height = 6
            let samples = (0..<width * height * colorType.channels).map { _ in UInt8.random(in: 0...255, using: &random) }
            let data = PNGEncoder.encode(width: width, height: height, colorType: colorType, samples: samples, filter: nil)
            let image = try Image(pngData: data)
            for y in 0..<height {
                for x in 0..<width {
                    let s = (y * width + x) * colorType.channels
                    let expected: Image.Pixel
                    switch colorType {
                    case .grayscale: expected = .init(r: samples[s], g: samples[s], b: samples[s])
                    case .truecolor: expected = .init(r: samples[s], g: samples[s + 1], b: samples[s + 2])
                    case .grayscaleAlpha: expected = .straight(r: samples[s], g: samples[s], b: samples[s], a: samples[s + 1])
                    default: expected = .straight(r: samples[s], g: samples[s + 1], b: samples[s + 2], a: samples[s + 3])
                    }
                    #expect(image.pixel(x: x, y: y) == expected, "\(colorType) at (\(x), \(y))")
                }
            }
        }
    }

    @Test func imagePNGDataRoundTripsOpaqueImages() throws {
        let image = Image(width: 300, height: 300, color: .init(r: 200, g: 30, b: 40), name: "big")
        // Large enough for several stored blocks (> 65,535 bytes of pixel data).
        let decoded = try Image(pngData: image.pngData(), name: "big")
        #expect(decoded == image)
    }

    @Test func inflatesFixedAndDynamicHuffmanStreams() throws {
        #expect(try Inflate.zlib([UInt8](Fixtures.fixedHuffman)) == Array("hello hello hello hello".utf8))
        #expect(try Inflate.zlib([UInt8](Fixtures.dynamicHuffman)) == [UInt8](Fixtures.dynamicHuffmanSource))
    }

    @Test func checksumsMatchKnownValues() {
        #expect(crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test func uiKitsFailableDataInitializerDecodesOrGivesNil() throws {
        #expect(Image(data: Fixtures.gradient64) == (try Image(pngData: Fixtures.gradient64)))
        #expect(Image(data: Data("<html>404</html>".utf8)) == nil)
    }

    @Test func notAPNGIsATypedError() {
        #expect(throws: ImageError.notAnImage) { try Image(pngData: Data("<html>404</html>".utf8)) }
        #expect(throws: ImageError.notAnImage) { try Image(pngData: Data()) }
    }

    @Test func damagedPNGsFailWithTypedErrors() {
        var bytes = [UInt8](Fixtures.gray)
        // Flip a byte inside IHDR's data: its CRC no longer matches.
        bytes[18] ^= 0xFF
        #expect(throws: ImageError.badChecksum(chunk: "IHDR")) { try Image(pngData: Data(bytes)) }
        let truncated = Data(Fixtures.gray.prefix(40))
        #expect(throws: ImageError.truncated) { try Image(pngData: truncated) }
        var corrupt = [UInt8](PNGEncoder.encode(width: 2, height: 2, colorType: .grayscale, samples: [1, 2, 3, 4]))
        // Break the zlib header inside IDAT, then fix the chunk CRC so only the stream is bad.
        let idat = corrupt.indices.first { corrupt[$0..<$0 + 4] == ArraySlice("IDAT".utf8) }!
        corrupt[idat + 4] = 0x79
        let length = Int(corrupt[idat - 1])
        let crc = crc32(corrupt[idat..<idat + 4 + length])
        corrupt.replaceSubrange(idat + 4 + length..<idat + 8 + length, with: [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
        #expect {
            try Image(pngData: Data(corrupt))
        } throws: { error in
            if case ImageError.corruptData = error { return true }
            return false
        }
    }

    @Test func unsupportedFormatsAreRejected() {
        var interlaced = [UInt8](PNGEncoder.encode(width: 1, height: 1, colorType: .grayscale, samples: [9]))
        interlaced[28] = 1
        let crc = crc32(interlaced[12..<29])
        interlaced.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
        #expect(throws: ImageError.unsupported("interlaced (Adam7) images")) { try Image(pngData: Data(interlaced)) }
        var sixteenBit = [UInt8](PNGEncoder.encode(width: 1, height: 1, colorType: .grayscale, samples: [9]))
        sixteenBit[24] = 16
        let crc2 = crc32(sixteenBit[12..<29])
        sixteenBit.replaceSubrange(29..<33, with: [UInt8(crc2 >> 24), UInt8((crc2 >> 16) & 0xFF), UInt8((crc2 >> 8) & 0xFF), UInt8(crc2 & 0xFF)])
        #expect(throws: ImageError.unsupported("bit depth 16 for colour type 0")) { try Image(pngData: Data(sixteenBit)) }
    }

    @Test func invalidSizesAreRejected() {
        #expect(throws: ImageError.invalidDimensions(width: 0, height: 1)) { try Image(width: 0, height: 1, pixels: []) }
        #expect(throws: ImageError.truncated) { try Image(width: 1, height: 1, pixels: [1, 2, 3]) }
    }
}
