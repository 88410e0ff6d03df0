import RuleEngine

/// Where a command shows the plan a session made, before the session applies it.
///
/// The session calls it between planning and applying and goes on, so the sequence of a
/// command's work stays in one place (``BotSession/evaluate(_:applying:port:)``) and no command
/// is returned to in the middle of it.
protocol PlanPort {
    /// Shows `plan`, made through `session` (`nil` offline, from a snapshot).
    func show(_ plan: Plan, session: BotSession?)
}
