package org.hapticsd.server.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hapticsd.server.script.AssertionResult;
import org.hapticsd.server.script.JUnitXml;
import org.hapticsd.server.script.ScriptRunner;
import org.hapticsd.server.script.ScriptSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code hapticsd test SCRIPT... [--junit-xml FILE]}: device-in-the-loop test scripts, in real time or in lockstep.
 * Prints every assertion with its measured value (and, in real time, how the host kept time in its window); exit 0
 * when all pass, 1 when any fails, 3 when none fails but some could not be checked (the host stalled beyond the
 * script's budget), 2 for a malformed script.
 */
@Command(name = "test", mixinStandardHelpOptions = true,
    description = "Run device-in-the-loop test scripts (real time or lockstep) and check their assertions.")
final class TestCommand implements java.util.concurrent.Callable<Integer> {

    @ParentCommand
    HapticsdCommand parent;

    @Parameters(arity = "1..*", paramLabel = "SCRIPT", description = "Test scripts (YAML).")
    List<Path> scripts;

    @Option(names = "--junit-xml", paramLabel = "FILE", description = "Also write the results as JUnit XML.")
    Path junitXml;

    @Option(names = "--record-dir", paramLabel = "DIR",
        description = "Also record every tick of each script to DIR/SCRIPT.rec (format: docs/recording.md); DIR is "
            + "created if missing.")
    Path recordDir;

    @picocli.CommandLine.Mixin
    RealTimeOption realTime = new RealTimeOption();

    @picocli.CommandLine.Mixin
    KeepAwakeOption keepAwake = new KeepAwakeOption();

    @picocli.CommandLine.Mixin
    SolverDeadlineOption solverDeadline = new SolverDeadlineOption();

    @Override
    public Integer call() {
        int rtPriority = realTime.rtPriority();
        if (recordDir != null && Files.exists(recordDir) && !Files.isDirectory(recordDir)) {
            throw new UsageException("--record-dir " + recordDir + ": not a directory");
        }
        if (junitXml != null) {
            // Checked before any script runs, like every other output path: a typo must not cost a whole run.
            Path folder = junitXml.toAbsolutePath().getParent();
            if (folder != null && !Files.isDirectory(folder)) {
                throw new UsageException("--junit-xml " + junitXml + ": directory " + folder + " does not exist");
            }
            if (Files.isDirectory(junitXml)) {
                throw new UsageException("--junit-xml " + junitXml + ": is a directory");
            }
        }
        ScriptRunner runner = new ScriptRunner();
        runner.setRtPriority(rtPriority);
        runner.setKeepCpuAwake(keepAwake.on());
        runner.setSolverDeadline(solverDeadline.on());
        Map<Path, ScriptSpec> loaded = new LinkedHashMap<>();
        Map<Path, Path> given = new java.util.HashMap<>();
        for (Path script : scripts) {
            // The same file under another spelling (./x.yaml, a/../x.yaml, a link to it) is the same script: its report
            // suite and recording would collide with the first run's (a tester saw it run once, silently, then run
            // four times under four spellings).
            Path first = given.putIfAbsent(sameFile(script), script);
            if (first != null) {
                parent.out().println("note: " + script + (first.equals(script) ? " is given more than once"
                    : " is " + first + " again") + "; it runs once");
                continue;
            }
            try {
                ScriptSpec spec = runner.load(script);
                runner.scene(script, spec);
                loaded.put(script, spec);
            } catch (ScriptRunner.ScriptException e) {
                throw new UsageException(e.getMessage());
            } catch (OutOfMemoryError e) {
                // As run and simulate say it (exit 1), not a raw OutOfMemoryError (a tester, a 2M-triangle mesh).
                throw LoopOptions.SceneLoadFailure.notEnoughMemory(script + ": scene");
            }
        }
        if (recordDir != null) {
            Map<String, Path> recordedBy = new java.util.HashMap<>();
            for (Path script : loaded.keySet()) {
                Path other = recordedBy.putIfAbsent(recordingName(script), script);
                if (other != null) {
                    throw new UsageException("--record-dir " + recordDir + ": " + other + " and " + script
                        + " would both record to " + recordDir.resolve(recordingName(script)) + ": rename one");
                }
            }
        }
        requireNoOutputOverAnInput(loaded);
        createRecordDir();
        PrintWriter out = parent.out();
        Map<String, List<AssertionResult>> results = new LinkedHashMap<>();
        Map<String, Double> secondsByScript = new LinkedHashMap<>();
        long startNs = System.nanoTime();
        int failed = 0;
        int errors = 0;
        int skipped = 0;
        // Ctrl-C (or SIGTERM) ends the running script, its device closed at zero force, and skips the rest; what ran
        // is still printed and written (a tester's Ctrl-C in the second of two scripts left no summary and no XML).
        SignalStop signals = SignalStop.install(runner::requestStop, 3,
            "stopping: the running script's device is closing and the results are being written; a third signal "
                + "exits at once, without them");
        try {
            for (Map.Entry<Path, ScriptSpec> entry : loaded.entrySet()) {
                if (runner.stopRequested()) {
                    skipped++;
                    continue;
                }
                String shown = entry.getValue().name() != null ? entry.getValue().name()
                    : entry.getKey().getFileName().toString();
                String name = suiteName(shown, entry.getKey(), results.keySet());
                out.println("== " + shown + " (" + entry.getKey() + ")" + (entry.getValue().isLockstep()
                    ? ", lockstep: simulated time, the same verdict on any machine" : ""));
                out.flush();
                List<AssertionResult> checked;
                long scriptStartNs = System.nanoTime();
                try {
                    Path recording = recordDir == null ? null
                        : recordDir.resolve(recordingName(entry.getKey()));
                    checked = runner.run(entry.getKey(), entry.getValue(), recording);
                    secondsByScript.put(name, (System.nanoTime() - scriptStartNs) * 1e-9);
                } catch (ScriptRunner.ScriptException e) {
                    throw new UsageException(e.getMessage());
                } catch (OutOfMemoryError e) {
                    // A 2-body scene blamed at 11 MB (a tester): only a build that ran out is the scene's.
                    throw runner.sceneBuilt() ? LoopOptions.SceneLoadFailure.notEnoughMemoryToRun(entry.getKey().toString())
                        : LoopOptions.SceneLoadFailure.notEnoughMemory(entry.getKey() + ": scene");
                }
                for (AssertionResult result : checked) {
                    out.println("  " + result.line());
                    if (result.hostTiming() != null) {
                        out.println("       " + result.hostTiming());
                    }
                    failed += result.outcome() == AssertionResult.Outcome.FAIL ? 1 : 0;
                    errors += result.outcome() == AssertionResult.Outcome.ERROR ? 1 : 0;
                }
                for (String note : runner.lastNotes()) {
                    out.println("  note: " + note);
                }
                results.put(name, checked);
            }
            // The results are written before the handlers go: a second signal meanwhile waits for them (a third
            // exits), where the JVM's own handler would end the process before the JUnit file exists.
            int total = results.values().stream().mapToInt(List::size).sum();
            out.println((total - failed - errors) + " passed, " + failed + " failed"
                + (errors > 0 ? ", " + errors + " not checked" : "")
                + (runner.stopRequested() ? "; stopped by a signal" + (skipped > 0 ? ", " + skipped + " script"
                    + (skipped == 1 ? "" : "s") + " not run" : "") : ""));
            out.flush();
            if (junitXml != null) {
                try {
                    JUnitXml.write(junitXml, results, secondsByScript, (System.nanoTime() - startNs) * 1e-9);
                } catch (IOException e) {
                    throw new UsageException("--junit-xml " + junitXml + ": cannot write: " + e.getMessage());
                }
            }
        } finally {
            signals.close();
        }
        if (runner.stopRequested()) {
            return signals.exitCode();
        }
        return failed > 0 ? Main.EXIT_FAILURE : errors > 0 ? Main.EXIT_INCONCLUSIVE : Main.EXIT_OK;
    }

    /** What identifies a script file whatever its spelling: its real path, or its normalised one if it has none. */
    private static Path sameFile(Path script) {
        try {
            return script.toRealPath();
        } catch (IOException e) {
            return script.toAbsolutePath().normalize();
        }
    }

    /**
     * The script's report suite: its {@code name}, by default its file name (as the docs promise; the path as typed
     * changed with the directory the suite was run from). A name an earlier script of the run already has gets the
     * script's path added: the report holds one suite per name, and a second would replace the first.
     */
    private static String suiteName(String name, Path script, java.util.Set<String> taken) {
        return taken.contains(name) ? name + " (" + script + ")" : name;
    }

    /**
     * A run must not write over what it reads: {@code test x.yaml --record-dir D} with {@code device: replay:x.rec}
     * and that file in D overwrote the recording it was replaying. Every output (each script's recording, the JUnit
     * file) is compared with every input (each script, its scene, its recording) before anything runs, and with the
     * other outputs.
     */
    private void requireNoOutputOverAnInput(Map<Path, ScriptSpec> loaded) {
        Map<Path, String> inputs = new LinkedHashMap<>();
        for (Map.Entry<Path, ScriptSpec> entry : loaded.entrySet()) {
            for (Path input : ScriptRunner.inputsOf(entry.getKey(), entry.getValue())) {
                inputs.putIfAbsent(input, input.equals(entry.getKey()) ? "the test script"
                    : "a file " + entry.getKey() + " reads");
            }
        }
        Map<Path, String> recordings = new LinkedHashMap<>();
        if (recordDir != null) {
            for (Path script : loaded.keySet()) {
                recordings.put(recordDir.resolve(recordingName(script)), "--record-dir " + recordDir + ": "
                    + script + " would record to");
            }
        }
        for (Map.Entry<Path, String> recording : recordings.entrySet()) {
            requireNotAnInput(recording.getValue(), recording.getKey(), inputs);
            if (junitXml != null && SameFile.test(recording.getKey(), junitXml)) {
                throw new UsageException(recording.getValue() + " " + recording.getKey()
                    + ", which is the --junit-xml file (" + junitXml + "): write them apart");
            }
        }
        if (junitXml != null) {
            requireNotAnInput("--junit-xml", junitXml, inputs);
        }
    }

    private static void requireNotAnInput(String what, Path output, Map<Path, String> inputs) {
        for (Map.Entry<Path, String> input : inputs.entrySet()) {
            if (SameFile.test(output, input.getKey())) {
                throw new UsageException(what + " " + output + ", which is " + input.getValue() + " ("
                    + input.getKey() + "): the run would overwrite its own input; write elsewhere");
            }
        }
    }

    /**
     * {@code --record-dir} is created with its parents when missing, as an output file's folder is by most tools:
     * a new directory per CI build should not need a separate mkdir. Done after every script loaded, so a malformed
     * script leaves nothing behind.
     */
    private void createRecordDir() {
        if (recordDir == null || Files.isDirectory(recordDir)) {
            return;
        }
        try {
            org.hapticsd.device.link.PseudoTerminalPair.createDirectory(recordDir);
        } catch (IOException e) {
            // The system's reason, not the JDK's exception class (a tester: "(NoSuchFileException /proc/x)").
            throw new UsageException("--record-dir " + recordDir + ": " + e.getMessage());
        }
    }

    /** {@code DIR/SCRIPT.rec}: the script's file name without its .yaml or .yml. */
    private static String recordingName(Path script) {
        return script.getFileName().toString().replaceFirst("\\.ya?ml$", "") + ".rec";
    }
}
