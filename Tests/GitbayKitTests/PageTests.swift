import Foundation
import GitbayKit
import Testing

@Suite struct PageTests {
    @Test func lastPageHasNoNext() throws {
        let page = try JSONDecoder().decode(Page<Int>.self, from: Data(#"{"items":[3,2,1]}"#.utf8))
        #expect(page.items == [3, 2, 1])
        #expect(page.next == nil)
    }

    @Test func nullItemsDecodeAsEmpty() throws {
        let page = try JSONDecoder().decode(Page<Int>.self, from: Data(#"{"items":null,"next":"aXNzdWU6MjEy"}"#.utf8))
        #expect(page.items.isEmpty)
        #expect(page.next == "aXNzdWU6MjEy")
    }
}
