// A stand-in for StoreKit (see README.md): its `Transaction`.
public struct Transaction: Sendable { public let id: UInt64 }
