/// The rules of one shared source, as a value: which connection is live, how many reference-
/// counted observers hold it, and whether a kept subject has already seen the source end.
///
/// `Multicaster` keeps one of these under its lock; every decision — join the
/// live connection, start a new one, only replay a finished subject, disconnect — is one
/// mutating call that returns what to do, and the adapter does it after unlocking. Because the
/// value knows nothing of threads or observers, the rules are tested on their own
/// (`SharingStateTests`).
///
/// Connections are named by a generation number, so a late call about a connection that is
/// already over (its last observer leaving after its terminal event, a second dispose) is
/// recognised and ignored.
struct SharingState: Sendable, Equatable {
    /// What a reference-counted subscription does after the decision.
    enum Join: Equatable {
        /// Subscribe to the live connection's subject; the connection is already running.
        case join(generation: UInt64)
        /// Subscribe to the subject of a new connection, then subscribe the source to it.
        case connect(generation: UInt64)
        /// The kept subject has seen the source end: subscribe to it for its replay and terminal
        /// event, without subscribing the source again (`.forever`).
        case replayFinished
    }

    /// Whether one subject serves every connection (`multicast(_:)`, `share(scope: .forever)`)
    /// or each connection gets its own (`publish()`, `replay(_:)`, `share(scope: .whileConnected)`).
    let keepsSubject: Bool

    /// The live connection's generation, or `nil` when none is live.
    private(set) var live: UInt64?
    /// How many reference-counted observers hold the live connection.
    private(set) var observers = 0
    /// A kept subject that received the source's terminal event.
    private(set) var finished = false
    private var lastGeneration: UInt64 = 0

    init(keepsSubject: Bool) {
        self.keepsSubject = keepsSubject
    }

    /// A reference-counted observer arrives.
    mutating func subscribe() -> Join {
        if let live {
            observers += 1
            return .join(generation: live)
        }
        if keepsSubject && finished { return .replayFinished }
        observers = 1
        return .connect(generation: startConnection())
    }

    /// A reference-counted observer of connection `generation` leaves.
    ///
    /// - Returns: `true` when it was the last one of the live connection, which the caller must
    ///   now dispose.
    mutating func unsubscribe(generation: UInt64) -> Bool {
        guard live == generation else { return false }
        observers -= 1
        guard observers == 0 else { return false }
        live = nil
        return true
    }

    /// `connect()` is called.
    ///
    /// - Returns: The live connection, and whether it is new (the caller subscribes the source).
    mutating func connect() -> (generation: UInt64, isNew: Bool) {
        if let live { return (live, false) }
        observers = 0
        return (startConnection(), true)
    }

    /// Connection `generation` ends: its source terminated (`terminated`), or it was disposed.
    ///
    /// - Returns: `true` when it was the live connection (the caller lets go of its subject,
    ///   unless the subject is kept).
    mutating func end(generation: UInt64, terminated: Bool) -> Bool {
        guard live == generation else { return false }
        live = nil
        observers = 0
        if terminated && keepsSubject { finished = true }
        return true
    }

    private mutating func startConnection() -> UInt64 {
        lastGeneration &+= 1
        live = lastGeneration
        return lastGeneration
    }
}
