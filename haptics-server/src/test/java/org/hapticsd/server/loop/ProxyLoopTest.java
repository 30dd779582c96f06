package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.PhysicsWorld;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * The loop with a scene rendered by proxy ({@code scenes/proxy.yaml}): the tool body and the snapshot's tool are the
 * proxy, the tool's own contacts with the plate are off, and the proxy's contact is published with the hand's depth
 * and the force rendered.
 */
class ProxyLoopTest {

    @Test
    void theSnapshotCarriesTheProxyAsTheToolAndItsContactWithThePlate() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus(Path.of("../scenes/proxy.yaml"));
        PhysicsWorld world = f.scene.haptic().world();
        int tool = f.scene.haptic().toolBody();
        int plate = f.scene.bodyIndices()[f.scene.bodyNames().indexOf("plate")];
        assertEquals(ContactMode.NONE, world.contactMode(tool, plate), "the proxy's spring replaces the contact");

        f.ticks(1800);  // pressed, the force at the safety layer's 8 N
        LoopSnapshot s = f.snapshot();
        assertEquals(0.006, s.toolPositionM[2], 1e-12, "the tool drawn on the plate");
        double deviceZ = s.devicePositionM[2];
        assertTrue(deviceZ < -0.009, "the hand is 15 mm deeper: " + deviceZ);
        assertEquals(1, s.contactCount);
        assertEquals(1, s.publishedContacts);
        assertEquals(tool, s.contactBodies[0]);
        assertEquals(plate, s.contactBodies[1]);
        assertEquals(0.001, s.contactPointM[2], 1e-12, "on the plate's top");
        assertEquals(1.0, s.contactNormal[2], 0.0);
        assertEquals(0.006 - deviceZ, s.contactDepthM[0], 1e-12);
        assertEquals(0.006 - deviceZ, s.maxPenetrationM, 1e-12);
        assertEquals(1000.0 * (0.006 - deviceZ), s.contactForceN[2], 1e-9, "k·d (the hand is at rest)");
        assertEquals(s.contactForceN[2], s.renderedForceN[2], 1e-12, "the rendered force is the proxy's");
        assertEquals(0.006, world.bodyPosition(tool, new Vector3d()).z, 1e-12, "the tool body sits at the proxy");
    }
}
