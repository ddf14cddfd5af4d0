// SPDX-License-Identifier: Apache-2.0
// A build-tool plugin of the `Combine` target: it makes `import Combine` mean this package's module
// for every target of a Linux build, from the first compile job on, in one plain `swift build`.
//
// Packages such as GRDB, Yams and XMLCoder compile their Combine code under `#if canImport(Combine)`
// and do not depend on this package. Every module of a build goes to one folder that every target
// searches, but nothing orders their compile jobs after ours: without this plugin each of their
// files answers `canImport(Combine)` by whether our module happened to be written yet, and a target
// whose files answer differently does not link. A prebuild command runs before any compile job, so
// it writes our two modules' interfaces (`CombineSynchronization.swiftmodule` and
// `Combine.swiftmodule`, type-checked declarations only, a few seconds) into that folder when they
// are missing; the real compile of the same sources with the same flags replaces them a moment
// later. A later build finds them and does nothing.
//
// It does nothing:
// - on hosts other than Linux (the step is a POSIX shell script for the host's triple); on an
//   Apple host the manifest does not even apply it (`earlyModule` in Package.swift), since
//   `import Combine` is Apple's framework there and SwiftPM runs a target's plugins also where
//   the target is not built;
// - when the build folder is inside this package (this package's own build, its benchmarks and
//   tools: every target of ours that imports Combine depends on it);
// - for a build folder of another triple than the host's (`--swift-sdk`): such a build needs the
//   two-step build described in the article "Using swift-combine with other packages".
import Foundation
import PackagePlugin

@main
struct EarlyCombineModule: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        #if os(Linux)
        guard let module = target as? SwiftSourceModuleTarget else { return [] }
        let work = context.pluginWorkDirectoryURL
        // The work folder is `<scratch>/plugins/outputs/<package>/<target>/.../<plugin>`.
        let workPath = work.standardizedFileURL.path
        guard let marker = workPath.range(of: "/plugins/outputs/") else { return [] }
        let scratch = String(workPath[..<marker.lowerBound])
        let packagePath = context.package.directoryURL.standardizedFileURL.resolvingSymlinksInPath().path
        let scratchResolved = URL(fileURLWithPath: scratch).resolvingSymlinksInPath().path
        if scratchResolved == packagePath || scratchResolved.hasPrefix(packagePath + "/") { return [] }
        guard let triple = hostTriple else { return [] }

        // Our modules in build order: the dependencies of `Combine` that are Swift targets of this
        // package (CombineSynchronization), then `Combine` itself.
        let dependencies = module.recursiveTargetDependencies.compactMap { $0 as? SwiftSourceModuleTarget }
        let modules = dependencies + [module]
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: work, withIntermediateDirectories: true)
        let arguments = [
            work.appending(path: "emit-modules.sh").path, scratch, triple, packageName(of: context.package),
            try swiftc(context),
        ]
        var order: [String] = []
        for module in modules {
            let list = work.appending(path: "\(module.name).sources")
            // A response file of the compiler: one quoted path a line.
            let sources = module.sourceFiles(withSuffix: "swift").map(\.url.path).sorted().map(quoted)
            try write(sources.joined(separator: "\n") + "\n", to: list)
            order.append(module.name)
        }
        try write(order.joined(separator: "\n") + "\n", to: work.appending(path: "modules"))
        try write(Self.script, to: work.appending(path: "emit-modules.sh"))
        let outputs = work.appending(path: "outputs")
        try fileManager.createDirectory(at: outputs, withIntermediateDirectories: true)
        return [
            .prebuildCommand(
                displayName: "Writing the interface of swift-combine's Combine ahead of the build",
                executable: URL(fileURLWithPath: "/bin/sh"), arguments: arguments, outputFilesDirectory: outputs)
        ]
        #else
        return []
        #endif
    }

    /// The build folder's name for this host's own triple.
    private var hostTriple: String? {
        #if os(Linux) && arch(x86_64)
        return "x86_64-unknown-linux-gnu"
        #elseif os(Linux) && arch(arm64)
        return "aarch64-unknown-linux-gnu"
        #else
        return nil
        #endif
    }

    /// The `-package-name` SwiftPM gives this package's targets: its identity, with every
    /// character that cannot be in an identifier replaced by `_`.
    private func packageName(of package: Package) -> String {
        var name = String(package.id.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if let first = name.first, first.isNumber { name = "_" + name }
        return name
    }

    private func swiftc(_ context: PluginContext) throws -> String {
        if let tool = try? context.tool(named: "swiftc") { return tool.url.path }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw PluginError.noCompiler
    }

    private func quoted(_ path: String) -> String {
        "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Writes only when the text differs, so that nothing in the work folder changes on a later build.
    private func write(_ text: String, to url: URL) throws {
        if let old = try? String(contentsOf: url, encoding: .utf8), old == text { return }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    enum PluginError: Error, CustomStringConvertible {
        case noCompiler
        var description: String { "EarlyCombineModule: no swiftc found in the toolchain or on PATH" }
    }

    /// The prebuild step. For this host's triple, in each module folder of the build that has no
    /// `Combine.swiftmodule` yet (SwiftPM's `debug` and `release`, where their folders exist, and
    /// swift-build's), it emits our modules with that configuration's flags (as SwiftPM passes
    /// them) into a temporary folder and moves them in, dependencies first; a copy stays in the
    /// work folder, for the check that it matches the real build's (scripts/check-neighbours.sh).
    /// A failure to emit is left to the real compile to report: the step itself never fails the
    /// build.
    ///
    ///   emit-modules.sh SCRATCH TRIPLE PACKAGE_NAME SWIFTC (MODULE SOURCES_LIST)...
    static let script = #"""
        # SPDX-License-Identifier: Apache-2.0
        # Written by swift-combine's EarlyCombineModule plugin (Plugins/EarlyCombineModule).
        scratch=$1 triple=$2 package_name=$3 swiftc=$4
        work=$(dirname "$0")

        # emit CONFIG MODULES LAYOUT: our modules, with CONFIG's flags, into the folder MODULES, as
        # `<module>.swiftmodule` files (LAYOUT file) or `<module>.swiftmodule/<triple>.swiftmodule`
        # (LAYOUT folder); dependencies first, each moved in whole.
        emit() {
            config=$1 modules=$2 layout=$3
            case $config in
                debug) flags="-Onone -enable-testing -DDEBUG" ;;
                *) flags="-O" ;;
            esac
            tmp="$work/emitting"
            rm -rf "$tmp" && mkdir -p "$tmp" || return
            names=$(cat "$work/modules")
            for name in $names; do
                # shellcheck disable=SC2086
                "$swiftc" -module-name "$name" -emit-module -wmo -parse-as-library \
                    -emit-module-path "$tmp/$name.swiftmodule" -I "$tmp" -I "$modules" -target "$triple" \
                    $flags -DSWIFT_PACKAGE -DSWIFT_MODULE_RESOURCE_BUNDLE_UNAVAILABLE -swift-version 6 \
                    -package-name "$package_name" -module-cache-path "$work/ModuleCache" \
                    -Xfrontend -experimental-skip-non-inlinable-function-bodies-without-types \
                    "@$work/$name.sources" >"$tmp/$name.log" 2>&1 || return
            done
            mkdir -p "$modules" "$work/emitted/$config"
            for name in $names; do
                cp "$tmp/$name.swiftmodule" "$work/emitted/$config/" || return
                if [ "$layout" = file ]; then
                    mv "$tmp/$name.swiftmodule" "$modules/$name.swiftmodule"
                else
                    mkdir -p "$modules/$name.swiftmodule" &&
                        mv "$tmp/$name.swiftmodule" "$modules/$name.swiftmodule/$triple.swiftmodule"
                fi
            done
            rm -rf "$tmp"
        }

        # SwiftPM's own build system: `<triple>/<config>/Modules`, for each configuration folder that
        # exists (the build being planned has made its own).
        for config in debug release; do
            modules="$scratch/$triple/$config/Modules"
            [ -d "$scratch/$triple/$config" ] && [ ! -e "$modules/Combine.swiftmodule" ] &&
                emit $config "$modules" file
        done
        # swift-build's (`--build-system swiftbuild`): `out/Products/<Config>-linux`. It has made no
        # folder of its own yet when this runs (SwiftPM's has made `<triple>/<config>`, so a build
        # folder without any is swift-build's), so both configurations are written.
        native=0
        for folder in "$scratch"/*/debug "$scratch"/*/release; do [ -d "$folder" ] && native=1; done
        if [ $native = 0 ] || [ -d "$scratch/out/Products" ]; then
            for config in Debug Release; do
                modules="$scratch/out/Products/$config-linux"
                [ -e "$modules/Combine.swiftmodule/$triple.swiftmodule" ] ||
                    emit "$(echo $config | tr 'DR' 'dr')" "$modules" folder
            done
        fi
        exit 0
        """#
}
