import BuildsPlugin
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

@Suite struct BuildTests {
    private let old = Fixtures.sha("b2")
    private let tip = Fixtures.sha("c3")

    /// docs/gitbay/domain.md#example-build-list: 4213 (running) and 4212 (lint, pending) on feat-x behind 4214
    /// at feat-x's tip.
    private var builds: [Build] {
        [
            Fixtures.build(4214, sha: tip),
            Fixtures.build(4213, status: .running, sha: old),
            Fixtures.build(4212, job: "lint", sha: old),
        ]
    }

    private func evaluate(_ build: Build, _ repository: RepositoryState) -> Supersession {
        Supersession.evaluate(build, in: repository)
    }

    @Test func anOlderBuildOfTheSameRefAndJobBehindTheTipIsSuperseded() {
        let repository = Fixtures.buildRepository(builds: builds)
        #expect(evaluate(builds[1], repository) == .superseded(by: 4214))
    }

    @Test func theNewestNamesTheHighestNumber() {
        let all = builds + [Fixtures.build(4215, sha: Fixtures.sha("d4"))]
        let repository = Fixtures.buildRepository(
            builds: all, branches: [RepositoryRef(name: "feat-x", sha: Fixtures.sha("d4"))])
        #expect(evaluate(builds[1], repository) == .superseded(by: 4215))
        #expect(evaluate(builds[0], repository) == .superseded(by: 4215))
    }

    @Test func aDifferentJobDoesNotSupersede() {
        #expect(evaluate(builds[2], Fixtures.buildRepository(builds: builds)) == .newest)
    }

    @Test func anOlderBuildNeverSupersedesANewerOne() {
        let repository = Fixtures.buildRepository(
            builds: builds, branches: [RepositoryRef(name: "feat-x", sha: Fixtures.sha("d4"))])
        #expect(evaluate(builds[0], repository) == .newest)
    }

    @Test(arguments: [BuildStatus.success, .failure, .cancelled])
    func aFinishedBuildIsNeverSuperseded(status: BuildStatus) {
        let finished = Fixtures.build(4213, status: status, sha: old)
        #expect(evaluate(finished, Fixtures.buildRepository(builds: builds)) == .finished)
    }

    @Test func theTipOfItsOwnBranchIsProtected() {
        let repository = Fixtures.buildRepository(builds: builds + [Fixtures.build(4215, sha: tip)])
        #expect(evaluate(builds[0], repository) == .protected(.branchTip("feat-x")))
    }

    @Test func anOpenMergeRequestsHeadIsProtected() {
        let mr = Fixtures.mergeRequest(number: 161, source: "feat-y", headSHA: old)
        let repository = Fixtures.buildRepository(builds: builds, mergeRequests: [mr])
        #expect(evaluate(builds[1], repository) == .protected(.openMergeRequestHead(161)))
    }

    @Test func aClosedMergeRequestsHeadIsNotProtected() {
        let mr = Fixtures.mergeRequest(number: 161, state: .closed, headSHA: old)
        let repository = Fixtures.buildRepository(builds: builds, mergeRequests: [mr])
        #expect(evaluate(builds[1], repository) == .superseded(by: 4214))
    }

    @Test func theTipOfAnyOtherBranchIsProtected() {
        let repository = Fixtures.buildRepository(
            builds: builds,
            branches: [RepositoryRef(name: "feat-x", sha: tip), RepositoryRef(name: "release-1.38", sha: old)])
        #expect(evaluate(builds[1], repository) == .protected(.branchTip("release-1.38")))
    }

    @Test func theDefaultBranchIsProtected() {
        let onMain = [
            Fixtures.build(20, sha: Fixtures.sha("aa"), ref: "main"), Fixtures.build(19, sha: old, ref: "main"),
        ]
        #expect(evaluate(onMain[1], Fixtures.buildRepository(builds: onMain)) == .protected(.defaultBranch("main")))
    }

    @Test func aTagIsProtected() {
        let tagged = [
            Fixtures.build(31, sha: Fixtures.sha("e1"), ref: "v1.0"), Fixtures.build(30, sha: old, ref: "v1.0"),
        ]
        #expect(evaluate(tagged[1], Fixtures.buildRepository(builds: tagged)) == .protected(.tag("v1.0")))
    }

    @Test func aForkMergeRequestBuildIsSupersededOnlyOnceItsHeadMoved() {
        let ref = "refs/merge-requests/158/head"
        let forkBuilds = [Fixtures.build(41, sha: tip, ref: ref), Fixtures.build(40, sha: old, ref: ref)]
        let moved = Fixtures.mergeRequest(number: 158, source: "alice/gitbay:typo", headSHA: tip)
        #expect(
            evaluate(forkBuilds[1], Fixtures.buildRepository(builds: forkBuilds, mergeRequests: [moved]))
                == .superseded(by: 41))
        let current = Fixtures.mergeRequest(number: 158, source: "alice/gitbay:typo", headSHA: old)
        #expect(
            evaluate(forkBuilds[1], Fixtures.buildRepository(builds: forkBuilds, mergeRequests: [current]))
                == .protected(.openMergeRequestHead(158)))
        let closed = Fixtures.mergeRequest(number: 158, state: .closed, source: "alice/gitbay:typo", headSHA: old)
        #expect(
            evaluate(forkBuilds[1], Fixtures.buildRepository(builds: forkBuilds, mergeRequests: [closed]))
                == .superseded(by: 41))
    }

    @Test func unreadFactsProtect() {
        #expect(
            evaluate(builds[1], Fixtures.buildRepository(builds: builds, defaultBranch: nil))
                == .protected(.unread("the default branch")))
        #expect(
            evaluate(builds[1], Fixtures.buildRepository(builds: builds, refsRead: false))
                == .protected(.unread("repo refs")))
        #expect(
            evaluate(builds[1], Fixtures.buildRepository(builds: builds, openMergeRequestsRead: false))
                == .protected(.unread("the open merge requests")))
    }

    @Test func fields() {
        let repository = Fixtures.buildRepository(builds: builds)
        let context = Fixtures.context(builds[1], in: repository)
        #expect(Fixtures.value("number", context) == .count(4213))
        #expect(Fixtures.value("job", context) == .text("test"))
        #expect(Fixtures.value("status", context) == .text("running"))
        #expect(Fixtures.value("ref", context) == .text("feat-x"))
        #expect(Fixtures.value("ref.default", context) == .boolean(false))
        #expect(Fixtures.value("sha", context) == .text(old))
        #expect(Fixtures.value("age", context) == .duration(Fixtures.day))
        #expect(Fixtures.value("superseded", context) == .boolean(true))
        #expect(Fixtures.value("superseded", Fixtures.context(builds[0], in: repository)) == .boolean(false))
        let onMain = Fixtures.build(20, sha: Fixtures.sha("aa"), ref: "main")
        #expect(Fixtures.value("ref.default", Fixtures.context(onMain, in: repository)) == .boolean(true))
        let unknown = Fixtures.buildRepository(builds: builds, defaultBranch: nil)
        #expect(Fixtures.value("ref.default", Fixtures.context(onMain, in: unknown)) == .absent)
    }

    @Test func cancelRendersBuildCancelAndIsDoneOnceFinished() throws {
        let cancel = try #require(Fixtures.action("cancel", .builds))
        let repository = Fixtures.buildRepository(builds: builds)
        let context = Fixtures.context(builds[1], in: repository)
        let command = try cancel.command(Fixtures.request(), context)
        #expect(command.argv == ["build", "cancel", "krz/gitbay", "4213"])
        #expect(command.effect == .write)
        #expect(!cancel.isDone(Fixtures.request(), context))
        #expect(!cancel.isDone(Fixtures.request(), Fixtures.context(builds[2], in: repository)))
        for status in [BuildStatus.success, .failure, .cancelled] {
            let finished = Fixtures.build(4213, status: status, sha: old)
            #expect(cancel.isDone(Fixtures.request(), Fixtures.context(finished, in: repository)))
        }
        #expect(cancel.refusal(context) == nil)
        #expect(cancel.warning(context) == nil)
    }

    @Test func cancelRefusesEveryProtectedBuildWhateverTheRuleSays() throws {
        let cancel = try #require(Fixtures.action("cancel", .builds))
        let mr = Fixtures.mergeRequest(number: 161, headSHA: old)
        let repository = Fixtures.buildRepository(builds: builds, mergeRequests: [mr])
        #expect(
            cancel.refusal(Fixtures.context(builds[1], in: repository))
                == "build 4213 is protected: its commit is the head of open !161; "
                + "cancelling it would block that merge request's checks")
        #expect(
            cancel.refusal(Fixtures.context(builds[0], in: repository))
                == "build 4214 is protected: its commit is the tip of branch feat-x")
        let onMain = Fixtures.build(19, sha: Fixtures.sha("01"), ref: "main")
        #expect(
            cancel.refusal(Fixtures.context(onMain, in: repository))
                == "build 19 is protected: it runs on the default branch main")
        let onTag = Fixtures.build(30, sha: Fixtures.sha("02"), ref: "v1.0")
        #expect(cancel.refusal(Fixtures.context(onTag, in: repository)) == "build 30 is protected: it runs on tag v1.0")
        let unread = Fixtures.buildRepository(builds: builds, refsRead: false)
        #expect(
            cancel.refusal(Fixtures.context(builds[1], in: unread))
                == "build 4213 is protected: repo refs has not been read, so the build cannot be shown safe to cancel")
    }
}

extension BuildTests {
    /// The merge requests listed across repositories (`mr list --q`) say which are open, not
    /// their heads: a build is judged only once its repository's open merge requests were listed.
    @Test func theMergeRequestsListedAcrossRepositoriesDoNotAnswerForTheOpenHeads() {
        var repository = Fixtures.buildRepository(builds: builds, openMergeRequestsRead: false)
        repository.known.insert(.allMergeRequests)
        #expect(evaluate(builds[1], repository) == .protected(.unread("the open merge requests")))
        repository.known.insert(.openMergeRequests)
        #expect(evaluate(builds[1], repository) == .superseded(by: 4214))
    }
}
