/// The needs-info pair of docs/recipes.md: a reminder once the author has been quiet for a week,
/// and the close a week after that reminder when the author stays silent.
///
/// One copy for the journeys and the property test that run it on forges of their own scopes.
enum NeedsInfoRules {
    /// The rule file, on `scope` (`owner:krz`, `repo:krz/app`).
    static func file(scope: String) -> String {
        """
        scope: \(scope)
        rules:
          - name: remind-author
            on: issues
            when: [state = open, labels has needs-info, waiting_on = author, quiet > 7d]
            do:
              - comment: "@{{ author }}: could you answer the question above?"
          - name: close-no-answer
            on: issues
            when:
              - state = open
              - labels has needs-info
              - waiting_on = author
              - quiet > 7d
              - comment_age.remind-author > 7d
            do: [comment: "Closing: no answer.", close]
        """
    }
}
