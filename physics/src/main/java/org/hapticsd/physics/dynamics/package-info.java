/** Contact laws that turn contact geometry and velocities into forces. Stateless and allocation-free. */
package org.hapticsd.physics.dynamics;
