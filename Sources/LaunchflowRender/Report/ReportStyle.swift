import Foundation

/// The report page's style sheet. Written with the `lf-` prefix; a page whose
/// task ids force another prefix (``ElementIDs``) gets it substituted.
enum ReportStyle {
    static func css(prefix: String) -> String {
        guard prefix != "lf-" else { return source }
        return source.replacingOccurrences(of: ".lf-", with: "." + prefix)
            .replacingOccurrences(of: "#lf-", with: "#" + prefix)
    }

    /// `report.css`, a resource of this target, read once.
    static let source: String = ReportResources.text("report", "css")
}
