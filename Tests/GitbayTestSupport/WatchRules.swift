/// The shipped `unmark-stale` rule, as the watch suites and benchmarks use it: an item of a `rules:` list.
public let unmarkStaleRule = """
      - name: unmark-stale
        on: issues
        when:
          - state = open
          - labels has stale
          - last_comment.author != @me
        do:
          - remove-label: stale
    """

/// The shipped `cancel-superseded` rule, as the watch suites and benchmarks use it: an item of a `rules:` list.
public let cancelSupersededRule = """
      - name: cancel-superseded
        on: builds
        when:
          - status in [pending, running]
          - superseded
          - not ref.default
        do:
          - cancel
    """

/// The stale rules the shipped ones were before they restarted the lifecycle, as a whole rule
/// file scoped to `owner:krz`.
///
/// `close-stale` waits for `mark-stale`'s notice and a datable label, and `mark-stale` gives its
/// notice only to an issue not labelled `stale` yet, so nothing gives one to an issue labelled
/// stale by someone else. `close-stale` comes first.
public let olderCloseStaleRules = """
    scope: owner:krz
    rules:
      - name: close-stale
        on: issues
        when:
          - state = open
          - labels has stale
          - quiet > 74d
          - comment_age.mark-stale > 14d
          - label_age.stale > 14d
        do: [close]
      - name: mark-stale
        on: issues
        when: [state = open, quiet > 60d, labels lacks stale]
        do: [add-label: stale, comment: This issue is stale.]
    """
