import CPOSIXShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child is started: `posix_spawn` in a process group of its own, with exactly the
/// descriptors ``SpawnEnds`` hands it.
extension ChildProcess {
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String?,
        ends: SpawnEnds, command: String
    ) throws -> pid_t {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        ends.addActions(&actions)
        var flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        #if canImport(Darwin)
        if let directory { _ = posix_spawn_file_actions_addchdir_np(&actions, directory) }
        flags |= POSIX_SPAWN_CLOEXEC_DEFAULT
        #else
        if let directory { _ = gitbay_spawn_addchdir(&actions, directory) }
        _ = gitbay_spawn_addclosefrom(&actions, 3)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        // Signals an in-process run may have caught or ignored start at their defaults in the child.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure.couldNotStart(command: command, code: result) }
        return pid
    }
}

/// The descriptors a spawn hands the child, and the parent's ends of its pipes.
struct SpawnEnds {
    /// What the child gets as 0, 1 and 2: a descriptor to duplicate, or a path to open.
    enum Slot {
        case descriptor(Int32)
        case path(String, flags: Int32)
    }

    var slots: [Slot] = []
    var childSides: [Int32] = []
    var inputWriter: Int32 = -1
    var outputReader: Int32 = -1
    var errorReader: Int32 = -1
    /// The pipe whose end of file tells the monitor the child has exited; the child has neither end.
    var exitReader: Int32 = -1
    var exitWriter: Int32 = -1

    mutating func prepare(input: ChildProcess.Input, output: ChildProcess.Output, error: ChildProcess.Output) throws {
        (exitReader, exitWriter) = try Self.pipe()
        switch input {
        case .null:
            slots.append(.path("/dev/null", flags: O_RDONLY))
        case .pipe:
            let (read, write) = try Self.pipe()
            childSides.append(read)
            inputWriter = write
            slots.append(.descriptor(read))
        }
        outputReader = try add(output)
        errorReader = try add(error)
    }

    private mutating func add(_ output: ChildProcess.Output) throws -> Int32 {
        switch output {
        case .capture:
            let (read, write) = try Self.pipe()
            childSides.append(write)
            slots.append(.descriptor(write))
            return read
        case .discard:
            slots.append(.path("/dev/null", flags: O_WRONLY))
        case .file(let path):
            slots.append(.path(path, flags: O_WRONLY | O_CREAT | O_TRUNC))
        }
        return -1
    }

    #if canImport(Darwin)
    typealias Actions = posix_spawn_file_actions_t?
    #else
    typealias Actions = posix_spawn_file_actions_t
    #endif

    func addActions(_ actions: inout Actions) {
        for (target, slot) in slots.enumerated() {
            switch slot {
            case .descriptor(let fd):
                posix_spawn_file_actions_adddup2(&actions, fd, Int32(target))
            case .path(let path, let flags):
                posix_spawn_file_actions_addopen(&actions, Int32(target), path, flags, 0o600)
            }
        }
    }

    /// The parent's sides, when the spawn failed.
    func closeParentSides() {
        for fd in [inputWriter, outputReader, errorReader, exitReader, exitWriter] where fd >= 0 { close(fd) }
    }

    /// The child's sides are its own once it is spawned (or useless if it was not).
    mutating func closeChildSides() {
        for fd in childSides { close(fd) }
        childSides = []
    }

    /// A pipe whose both ends are close-on-exec from the start.
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard gitbay_pipe(&fds, 0) == 0 else {
            throw ChildProcess.Failure.couldNotStart(command: "pipe", code: errno)
        }
        return (fds[0], fds[1])
    }
}
