// A stand-in for Apple's Network framework (see README.md): a module named `Network`, as our
// `Repository.Network` protocol is.
public final class NWConnection: @unchecked Sendable { public init() {} }
