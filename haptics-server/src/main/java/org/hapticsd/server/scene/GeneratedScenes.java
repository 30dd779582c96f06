package org.hapticsd.server.scene;

import java.util.Locale;

/** What the generated validation scenes ({@link SpherePile}, {@link CubeStack}) share in their scene files. */
final class GeneratedScenes {
    private GeneratedScenes() {
    }

    /**
     * The sections after a generated scene's comment and name, up to and including its first body, the floor: 1 kHz,
     * the simulated hand held still, the tool parked {@code toolParkHeightM} above the floor out of the way, LCP
     * contacts (the tool's penalty against dynamic bodies, should a hand move it), and the floor's material.
     */
    static String toolParkedAboveAnLcpFloor(double toolParkHeightM, double elasticity, double friction) {
        return String.format(Locale.ROOT, """
            rateHz: 1000

            device:
              initialPosition: [0.0, 0.0, 0.0]
              hand:
                target: [0.0, 0.0, 0.0]

            mapping:
              origin: [0.0, 0.0, %s]

            tool:
              radiusM: 0.005

            contact:
              mode: lcp

            contactModes:
              - {body: tool, mode: penalty}

            bodies:
              - name: floor
                shape: {type: plane, normal: [0.0, 0.0, 1.0]}
                position: [0.0, 0.0, 0.0]
                material: {elasticity: %s, staticFriction: %s, dynamicFriction: %s}
            """, toolParkHeightM, elasticity, friction, friction);
    }
}
