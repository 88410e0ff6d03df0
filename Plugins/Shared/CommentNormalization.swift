import GitbayKit

extension Comment {
    /// The comment as gitbay sends it: without `kind`, which its `commentOut` never puts on the wire
    /// (`internal/control/thread.go`, `json:"-"`), so the author `system` alone marks a system
    /// comment, offline as live, whatever `kind` a forge-state file stores for the simulator.
    public var normalized: Comment {
        var comment = self
        comment.kind = nil
        return comment
    }
}
