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
