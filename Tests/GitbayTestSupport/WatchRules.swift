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

/// The close rule the shipped stale rules had before they restarted the lifecycle, as a whole
/// rule file scoped to `owner:krz`: it waits for `mark-stale`'s notice and a datable label, and
/// nothing in it gives an issue labelled stale by someone else either.
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
    """
