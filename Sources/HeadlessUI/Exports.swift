// RxCocoa's umbrella header imports Foundation, so a file that imports only RxSwift and
// RxCocoa can name `URL`, `NSError`, `Date`, `NSRecursiveLock`… Re-exporting Foundation here
// keeps such files compiling when their imports change to Streams and HeadlessUI.
@_exported import Foundation
