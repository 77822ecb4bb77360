import CSystem

/// What this binary is: its release version and the git commit it was built from (scripts/package bakes the commit
/// in; a build from the source folder says "unknown").
public enum Build {
    public static let version = String(cString: csys_build_version())
    public static let commit = String(cString: csys_build_commit())
    /// `arcade --version`'s line.
    package static var description: String { "arcade \(version) (commit \(commit))" }
}
