package org.hapticsd.server.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.deformable.DeformableBody;
import org.hapticsd.server.loop.LoopEvents;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.scene.BuiltScene;

/**
 * Writes the simulate command's CSV: {@code t, device.x..z, tool.x..z, force.x..z, safety}, then for each named
 * body {@code NAME.px NAME.py NAME.pz NAME.qw NAME.qx NAME.qy NAME.qz NAME.vx NAME.vy NAME.vz}, then
 * {@code delivered.x..z, events, events.names}, then {@code transient.x..z} (the impact transient in the force, device
 * frame) and, on a tick where an impulse collision begins, its {@code pulse.impulseNs, pulse.heightN,
 * pulse.durationS} (the tool's transient first; empty otherwise), then for each deformable body and node i
 * {@code NAME.n{i}.px NAME.n{i}.py NAME.n{i}.pz}. Numbers are written with
 * {@link Double#toString(double)}, which round-trips exactly, so a reader can check physics identities to the last
 * bit.
 *
 * <p>The delivered force and the events come last, after the body columns, rather than next to the force: the
 * layout is a stable interface and readers index the older columns by position, which appending keeps valid.
 */
final class CsvTickWriter {
    private static final String[] BODY_COLUMNS = {"px", "py", "pz", "qw", "qx", "qy", "qz", "vx", "vy", "vz"};
    private static final String[] NODE_COLUMNS = {"px", "py", "pz"};

    private final Writer out;
    private final BuiltScene scene;
    private final StringBuilder line = new StringBuilder(512);

    CsvTickWriter(Writer out, BuiltScene scene) {
        this.out = out;
        this.scene = scene;
    }

    void header() {
        line.setLength(0);
        line.append("t,device.x,device.y,device.z,tool.x,tool.y,tool.z,force.x,force.y,force.z,safety");
        for (String name : scene.bodyNames()) {
            for (String column : BODY_COLUMNS) {
                line.append(',').append(name).append('.').append(column);
            }
        }
        line.append(",delivered.x,delivered.y,delivered.z,events,events.names");
        line.append(",transient.x,transient.y,transient.z,pulse.impulseNs,pulse.heightN,pulse.durationS");
        PhysicsWorld world = scene.haptic().world();
        for (int d = 0; d < world.deformableCount(); d++) {
            DeformableBody body = world.deformable(d);
            for (int node = 0; node < body.nodeCount(); node++) {
                for (String axis : NODE_COLUMNS) {
                    line.append(',').append(body.name()).append(".n").append(node).append('.').append(axis);
                }
            }
        }
        flushLine();
    }

    /**
     * A whole number of nanoseconds as decimal seconds, exactly: {@code 2.913}, {@code 0.00025}, {@code 1.0}. A double
     * printed {@code 2.9130000000000003} (a tester) and, below a millisecond, {@code 2.5E-4}.
     */
    static void appendSeconds(StringBuilder out, long ns) {
        if (ns < 0) {
            out.append('-');
            ns = -ns;
        }
        out.append(ns / 1_000_000_000L).append('.');
        long fraction = ns % 1_000_000_000L;
        if (fraction == 0) {
            out.append('0');
            return;
        }
        int digits = 9;
        while (fraction % 10 == 0) {
            fraction /= 10;
            digits--;
        }
        String text = Long.toString(fraction);
        for (int i = text.length(); i < digits; i++) {
            out.append('0');
        }
        out.append(text);
    }

    void row(LoopSnapshot s) {
        line.setLength(0);
        appendSeconds(line, s.timeNs);
        append(s.devicePositionM);
        append(s.toolPositionM);
        append(s.commandedForceN);
        line.append(',').append(s.safety.name());
        int[] bodies = scene.bodyIndices();
        for (int body : bodies) {
            int p = body * LoopSnapshot.POSE_STRIDE;
            for (int i = 0; i < LoopSnapshot.POSE_STRIDE; i++) {
                line.append(',').append(s.bodyPose[p + i]);
            }
            int v = body * LoopSnapshot.VELOCITY_STRIDE;
            for (int i = 0; i < LoopSnapshot.VELOCITY_STRIDE; i++) {
                line.append(',').append(s.bodyVelocity[v + i]);
            }
        }
        append(s.deliveredForceN);
        line.append(',').append(s.events).append(',');
        LoopEvents.appendNames(s.events, line);
        append(s.transientForceN);
        if (s.impulseCollisions > 0) {
            line.append(',').append(s.impulseImpulseNs[0]).append(',').append(s.impulseHeightN[0]).append(',')
                .append(s.impulseDurationS[0]);
        } else {
            line.append(",,,");
        }
        for (double coordinate : s.nodePositionM) {
            line.append(',').append(coordinate);
        }
        flushLine();
    }

    private void append(double[] xyz) {
        line.append(',').append(xyz[0]).append(',').append(xyz[1]).append(',').append(xyz[2]);
    }

    private void flushLine() {
        line.append('\n');
        try {
            out.append(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
