/// Thrown by ``Harness`` after recording an issue, to stop a test that cannot go on.
struct HarnessFailure: Error {}
