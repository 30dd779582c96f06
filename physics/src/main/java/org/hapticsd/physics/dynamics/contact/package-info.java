/**
 * Contact models, one per {@link org.hapticsd.physics.ContactMode} other than {@code NONE}, as plug-ins of the
 * step (box2d {@code src/contact_solver.c}: one function per stage over a constraint array its family owns).
 *
 * <ul>
 *   <li>{@link org.hapticsd.physics.dynamics.contact.ContactModel}: the stage hooks a model implements. Each owns
 *       its rows and the state it carries from one step to the next.</li>
 *   <li>{@link org.hapticsd.physics.dynamics.contact.ContactMatcher}: which point of the last step each point of
 *       this step continues ({@code previous[i]}, or −1 for a new contact), the only thing the models share about
 *       time.</li>
 *   <li>{@link org.hapticsd.physics.dynamics.contact.ContactOnsets}: the new contacts of the step and how fast
 *       they closed, published after the narrowphase for whoever reacts to impacts.</li>
 *   <li>{@link org.hapticsd.physics.dynamics.contact.LcpContactModel} (projected Gauss–Seidel on source 003's
 *       LCP with Springhead's targets, seed 002) and
 *       {@link org.hapticsd.physics.dynamics.contact.PenaltyContactModel} (a spring–damper with stick–slip
 *       friction).</li>
 * </ul>
 *
 * A new mode is a new {@code ContactMode} constant naming its model's constructor, and the model's files here.
 */
package org.hapticsd.physics.dynamics.contact;
