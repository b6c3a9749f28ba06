// RxCocoa's umbrella header imports Foundation, so a file that imports only RxSwift and
// RxCocoa can name `URL`, `NSError`, `Date`, `NSRecursiveLock`… Re-exporting Foundation here
// keeps such files compiling when their imports change to Streams and HeadlessUI.
@_exported import Foundation

// The list-change vocabulary (`Changeset`, section models, the diff and its identity protocols)
// lives in `Differentiator`, which names no view, so a view model or a SwiftUI file can import
// it without HeadlessUI's `View`, `Label` or `Button`. Code that imports HeadlessUI sees it as
// before, as RxDataSources users see Differentiator through RxDataSources.
@_exported import Differentiator
