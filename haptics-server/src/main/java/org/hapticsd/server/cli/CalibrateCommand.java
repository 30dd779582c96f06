package org.hapticsd.server.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.server.calibrate.Calibration;
import org.hapticsd.server.calibrate.CalibrationBounds;
import org.hapticsd.server.calibrate.CalibrationResult;
import org.hapticsd.server.calibrate.CollisionData;
import org.hapticsd.server.calibrate.CollisionDataException;
import org.hapticsd.server.calibrate.CollisionDataReader;
import org.hapticsd.server.calibrate.RecordedTaps;
import org.hapticsd.server.calibrate.Report;
import org.hapticsd.server.record.Recording;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code hapticsd calibrate}: fits the IMPULSE contact model's parameters to measured collisions (source 000 §5),
 * from a CSV of collisions or from the taps of a tick recording. docs/calibration.md.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
    description = "Fit the impulse waveform model (e, S_h, S_w, mu_s, mu_d and the correlation ratios) to measured "
        + "collisions by CMA-ES: a collision CSV, or the taps in a tick recording (run --record).")
final class CalibrateCommand implements Callable<Integer> {
    static final int DEFAULT_EVALUATIONS = 30_000;
    static final int DEFAULT_RATE_HZ = 1000;

    @ParentCommand
    HapticsdCommand parent;

    @Option(names = "--data", paramLabel = "FILE", required = true,
        description = "Collision CSV (docs/calibration.md), or a tick recording (.rec) whose taps are the data.")
    Path data;

    @Option(names = "--model", paramLabel = "MODEL", required = true,
        description = "single: sequences of single-point collisions (source 000 §4.1); multi: with a correlation "
            + "ratio per pair of each multi-point event (§4.2).")
    String model;

    @Option(names = "--bounds", paramLabel = "FILE",
        description = "Search ranges (YAML: e, S_h, S_w, mu_s, mu_d, alpha, alphas). Default: source 000 Table 2's.")
    Path bounds;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the search. Default: 1.")
    long seed = 1;

    @Option(names = "--rate", paramLabel = "HZ",
        description = "Loop rate the waveforms are sampled at, as the scene will run. Default: "
            + DEFAULT_RATE_HZ + ".")
    int rateHz = DEFAULT_RATE_HZ;

    @Option(names = "--impact-threshold", paramLabel = "MPS",
        description = "Approach speed above which a contact collides, as the scene will run "
            + "(contact.impactThresholdMps). Default: the engine's, 0.1.")
    Double impactThresholdMps;

    @Option(names = "--evaluations", paramLabel = "N",
        description = "Evaluations of the objective, over the three runs of the search. Default: "
            + DEFAULT_EVALUATIONS + ".")
    int evaluations = DEFAULT_EVALUATIONS;

    @Option(names = "--effective-mass", paramLabel = "KG",
        description = "For a recording: the tool's effective mass, kg (the scene's device.effectiveMassKg).")
    Double effectiveMassKg;

    @Override
    public Integer call() {
        Calibration.Model chosen = switch (model.toLowerCase(Locale.ROOT)) {
            case "single" -> Calibration.Model.SINGLE;
            case "multi" -> Calibration.Model.MULTI;
            default -> throw new UsageException("--model must be single or multi, got '" + model + "'");
        };
        if (rateHz < 1 || rateHz > 100_000) {
            throw new UsageException("--rate must be 1..100000 Hz, got " + rateHz);
        }
        if (evaluations < 100) {
            throw new UsageException("--evaluations must be >= 100, got " + evaluations);
        }
        ContactSettings settings = ContactSettings.defaults();
        if (impactThresholdMps != null) {
            if (!(impactThresholdMps >= 0.0) || !Double.isFinite(impactThresholdMps)) {
                throw new UsageException("--impact-threshold must be a finite speed >= 0 m/s, got "
                    + impactThresholdMps);
            }
            settings = settings.withImpactThresholdMps(impactThresholdMps);
        }
        CollisionData collisions;
        CalibrationBounds ranges;
        try {
            if (RecordedTaps.isRecording(data)) {
                if (effectiveMassKg == null) {
                    throw new UsageException("--data " + data + " is a tick recording: give the tool's "
                        + "--effective-mass KG (the recording does not carry it)");
                }
                if (!(effectiveMassKg > 0.0) || !Double.isFinite(effectiveMassKg)) {
                    throw new UsageException("--effective-mass must be > 0 kg, got " + effectiveMassKg);
                }
                Recording recording = RecordedTaps.recording(data);
                String cutShort = recording.cutShortNote();
                if (cutShort != null) {
                    // As a replay of the same file says it (DeviceSelector): the taps after the cut are missing.
                    parent.err().println("hapticsd: WARN recording " + data + " has " + cutShort
                        + " are read for taps");
                    parent.err().flush();
                }
                collisions = RecordedTaps.read(data, recording, effectiveMassKg, settings.impactThresholdMps());
            } else {
                if (effectiveMassKg != null) {
                    throw new UsageException("--effective-mass is for recordings; " + data
                        + " is a collision CSV, which gives every mass");
                }
                collisions = CollisionDataReader.read(data);
            }
            ranges = bounds == null ? CalibrationBounds.DEFAULTS : CalibrationBounds.read(bounds);
        } catch (CollisionDataException e) {
            throw new UsageException(e.getMessage());
        }
        Calibration calibration;
        try {
            calibration = new Calibration(collisions, chosen, ranges, seed, 1.0 / rateHz, settings, evaluations);
        } catch (IllegalArgumentException e) {
            // Data a fit would only print noise from (no motion, no collision): named, exit 2. A bound that does not
            // fit the data names the bounds file, as its other errors do (a tester's alphas pair said "bounds:").
            String message = e.getMessage();
            if (bounds != null && message != null && message.startsWith("bounds: ")) {
                message = bounds + ": " + message.substring("bounds: ".length());
            }
            throw new UsageException(message);
        }
        CalibrationResult result = calibration.run();
        Report.print(result, parent.out());
        return Main.EXIT_OK;
    }
}
