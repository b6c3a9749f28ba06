import Foundation
@testable import ObjectStore
