package org.hapticsd.benchmarks;

import java.nio.file.Path;
import java.util.Locale;
import org.hapticsd.physics.deformable.MassSpringBody;
import org.hapticsd.physics.deformable.MassSpringSpec;
import org.hapticsd.physics.deformable.MassSpringSpec.Integrator;
import org.hapticsd.physics.deformable.MassSpringStatics;
import org.hapticsd.physics.deformable.ModalBasis;
import org.hapticsd.server.scene.DeformableSpec;
import org.hapticsd.server.scene.SceneLoader;
import org.hapticsd.server.scene.SceneSpec;

/**
 * The largest stable step of each integrator on the cloth of {@code scenes/cloth.yaml} (issue 13, source 004's claim),
 * by bisection: a step is stable when 2 s of simulated time at it keep every node finite and within 5 m. Undamped,
 * so the limit is the integrator's, not the damping's. Two starts: hanging at equilibrium with the free corner
 * lifted 2 cm (small motion, the truncated model's range), and released flat (a large rotation). Not a JMH benchmark:
 * it measures stability, not time; about 10 minutes, most of it {@code modal} with every mode (1194² per step). Run
 * from the repository root:
 * {@code java -cp benchmarks/target/benchmarks.jar org.hapticsd.benchmarks.ClothStableSteps}.
 */
public final class ClothStableSteps {
    private ClothStableSteps() {
    }

    public static void main(String[] args) throws Exception {
        SceneSpec scene = new SceneLoader().load(Path.of("scenes/cloth.yaml"));
        DeformableSpec d = scene.deformables().get(0);
        MassSpringSpec undamped = withDamping(d.toSpec(scene.gravityMps2()), 0.0);
        double[] hanging = MassSpringStatics.equilibrium(undamped);
        ModalBasis atRest = ModalBasis.of(undamped);
        ModalBasis aboutHanging = ModalBasis.of(undamped, hanging);
        System.out.printf(Locale.ROOT, "cloth: %d DOF; ω_max %.1f rad/s (explicit limit 2/ω_max = %.3f ms); about the"
                + " hanging equilibrium ω_30 %.2f, ω_100 %.2f rad/s%n", atRest.dofs(),
            atRest.omegaRadps(atRest.dofs() - 1), 2e3 / atRest.omegaRadps(atRest.dofs() - 1),
            aboutHanging.omegaRadps(29), aboutHanging.omegaRadps(99));
        double[] poked = hanging.clone();
        poked[3 * (undamped.nodeCount() - 1) + 2] += 0.02;
        Object[][] cases = {
            {"newmark", Integrator.NEWMARK, 0, atRest},
            {"symplectic-euler", Integrator.SYMPLECTIC_EULER, 0, atRest},
            {"modal (all modes)", Integrator.MODAL, 0, atRest},
            {"modal-truncated, 30 modes about the hanging cloth", Integrator.MODAL_TRUNCATED, 30, aboutHanging},
            {"modal-truncated, 100 modes about the hanging cloth", Integrator.MODAL_TRUNCATED, 100, aboutHanging},
        };
        System.out.println("| integrator | largest stable step, from hanging + 2 cm | from flat |");
        System.out.println("|---|---|---|");
        for (Object[] c : cases) {
            MassSpringSpec spec = undamped.withIntegrator((Integrator) c[1], (Integer) c[2]);
            double fromHanging = largestStable(spec, (ModalBasis) c[3], poked);
            double fromFlat = largestStable(spec, (ModalBasis) c[3], undamped.restPositionM());
            System.out.printf(Locale.ROOT, "| %s | %.3g ms | %.3g ms |%n", c[0], fromHanging * 1e3, fromFlat * 1e3);
        }
    }

    private static MassSpringSpec withDamping(MassSpringSpec s, double h) {
        return new MassSpringSpec(s.massKg(), s.restPositionM(), s.springNodes(), s.stiffnessNpm(), s.restLengthM(),
            s.pinned(), s.gravityMps2(), h, s.integrator(), s.modes(), s.substeps());
    }

    private static double largestStable(MassSpringSpec spec, ModalBasis basis, double[] start) {
        double lo = 1e-5;
        double hi = 0.2;
        for (int iteration = 0; iteration < 14; iteration++) {
            double mid = Math.sqrt(lo * hi);
            MassSpringBody body = new MassSpringBody("cloth", spec, 0.005, basis, new int[0]);
            body.setState(start, new double[start.length]);
            if (stable(body, mid, 2.0)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static boolean stable(MassSpringBody body, double dt, double seconds) {
        int steps = (int) Math.ceil(seconds / dt);
        for (int k = 0; k <= steps; k++) {
            if (k % 50 == 0 || k == steps) {
                for (int n = 0; n < body.nodeCount(); n++) {
                    for (int axis = 0; axis < 3; axis++) {
                        double p = body.position(n, axis);
                        if (!Double.isFinite(p) || Math.abs(p) > 5.0) {
                            return false;
                        }
                    }
                }
            }
            if (k < steps) {
                body.step(dt);
            }
        }
        return true;
    }
}
