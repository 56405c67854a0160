import Foundation

/// The report's script and style sheet, kept as files of their own
/// (`report.js`, `report.css`: SwiftPM resources of this target, read
/// through `Bundle.module`) and written inline into the page, which stays
/// one self-contained file.
///
/// `make install` copies the resource bundle beside the executable, where
/// `Bundle.module` looks for it.
enum ReportResources {
    /// The text of resource `name.ext`.
    static func text(_ name: String, _ ext: String) -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: ext),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else {
            preconditionFailure("the report's \(name).\(ext) is missing from the LaunchflowRender resources")
        }
        return text
    }
}
