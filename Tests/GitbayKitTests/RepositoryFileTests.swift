import Foundation
import GitbayKit
import Testing

/// `repo cat` and `repo tree`: the argv the bot may send and the replies it reads, as gitbay's
/// `runRepoCat` and `runRepoTree` answer them (docs/gitbay/domain.md#repository-files; the
/// simulator's RepoFileTests pin the same shapes against it).
@Suite struct RepositoryFileTests {
    private let repo: RepositoryPath

    init() throws {
        repo = try RepositoryPath("krz/app")
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
        try GitbayJSON.decoder().decode(type, from: Data(json.utf8))
    }

    @Test func theDefaultBranchIsReadWithoutRefAndTheRootWithoutPath() throws {
        #expect(
            try RepoCatCommand(repository: repo, path: ".gitbay/bot.yml").argv == [
                "repo", "cat", "krz/app", ".gitbay/bot.yml",
            ])
        #expect(try RepoTreeCommand(repository: repo).argv == ["repo", "tree", "krz/app"])
        #expect(
            try RepoTreeCommand(repository: repo, ref: "main").argv == ["repo", "tree", "krz/app", "--ref", "main"])
    }

    /// What gitbay would refuse (exit 2) or read as a flag is refused before it is sent.
    @Test(arguments: ["", "/", "./.", "../x", "a/../../b", "--ref"])
    func aPathGitbayRefusesOrReadsAsAFlagIsRefused(path: String) {
        #expect(throws: GitbayCommandError.invalidFilePath(path)) { try RepoCatCommand(repository: repo, path: path) }
    }

    @Test func anEmptyRefOrOneLikeAFlagIsRefused() {
        #expect(throws: GitbayCommandError.invalidRef("")) { try RepoCatCommand(repository: repo, path: "a", ref: "") }
        #expect(throws: GitbayCommandError.invalidRef("-x")) { try RepoTreeCommand(repository: repo, ref: "-x") }
        #expect(throws: GitbayCommandError.invalidFilePath("..")) { try RepoTreeCommand(repository: repo, path: "..") }
    }

    @Test func textBinaryEmptyAndCutFilesGiveTheirBytes() throws {
        let text = try decode(
            RepositoryBlob.self,
            #"{"path": "krz/app", "ref": "main", "file": ".gitbay/bot.yml", "size": 5, "binary": false, "content": "a: 1\n"}"#
        )
        #expect((text.repository, text.ref, text.file, text.truncated) == ("krz/app", "main", ".gitbay/bot.yml", false))
        #expect(text.bytes == Array("a: 1\n".utf8))
        let binary = try decode(
            RepositoryBlob.self,
            #"{"path": "krz/app", "ref": "main", "file": "bin", "size": 3, "binary": true, "base64": "eAB5"}"#)
        #expect(binary.bytes == [0x78, 0x00, 0x79])
        let empty = try decode(
            RepositoryBlob.self, #"{"path": "krz/app", "ref": "main", "file": "empty", "size": 0, "binary": false}"#)
        #expect(empty.bytes == [])
        let cut = try decode(
            RepositoryBlob.self,
            #"{"path": "krz/app", "ref": "main", "file": "b", "size": 4, "binary": false, "truncated": true, "content": "a: 1"}"#
        )
        #expect(cut.truncated)
        let broken = try decode(
            RepositoryBlob.self,
            #"{"path": "krz/app", "ref": "main", "file": "b", "size": 1, "binary": true, "base64": "%%"}"#)
        #expect(broken.bytes == nil)
    }

    @Test func aTreeLevelKeepsEachEntrysObjectId() throws {
        let tree = try decode(
            RepositoryTree.self,
            #"""
            {"path": "krz/app", "ref": "main", "dir": "", "entries": [
              {"name": ".gitbay", "type": "tree", "mode": "040000", "sha": "3838c85e00b146fa1de8ac02636d204ed0e5ed1a"},
              {"name": "empty", "type": "blob", "mode": "100644", "sha": "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"},
              {"name": "bin", "type": "blob", "mode": "100644", "sha": "d5d0b8b4c4c9e936890870f6799cfbb5ba984470", "size": 3}]}
            """#)
        #expect(tree.repository == "krz/app" && tree.dir == "")
        #expect(tree.entries.map(\.name) == [".gitbay", "empty", "bin"])
        #expect(tree.entries.map(\.size) == [nil, nil, 3])
        #expect(tree.entries[0].sha == "3838c85e00b146fa1de8ac02636d204ed0e5ed1a")
    }
}
