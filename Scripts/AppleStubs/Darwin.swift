// A stand-in for the names our Darwin branches take from Darwin (see README.md), with the
// SDK's Swift signatures: the overlay's non-variadic `fcntl(_:_:)`, `F_FULLFSYNC` (51) and
// `fsync`. Only files whose Darwin branch is small and self-contained are type-checked with it.
public var F_FULLFSYNC: Int32 { 51 }
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { -1 }
public func fsync(_ fd: Int32) -> Int32 { 0 }
