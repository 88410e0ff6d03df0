/// One kind of item rules act on, as the plugin that brings it declares it: its names and how its
/// items are read.
///
/// The rest is optional, each concern a protocol of its own that the declaring type adopts when
/// it has something to say: ``CachedDetails`` (the read cache), ``WatchedKind`` (which items a
/// feed event touches), ``StateFileList`` and ``StateFileDerivation`` (its part of a forge-state
/// file). The ``PluginRegistry`` hands the engine each concern alone, so the planner, the
/// evaluator and the applier know nothing else of a kind, and a plugin that adds a kind brings
/// all of that with it.
public typealias ItemKindDefinition = ItemKindNaming & ItemKindReading
