import { describe, expect, it } from 'vitest';
import { CreateAccountPage } from '../pages/create-account-page.ts';
import { HomePage } from '../pages/home-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { createUser, newUser } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { pathOf, sessionStorageOf, signUpAndLogin, waitForPath } from '../support/session.ts';
import { shownFor, watchTimeline } from '../support/timeline.ts';

const browser = useBrowser();

describe('route guard', () => {
  it.each(['/home', '/account', '/logout'])('sends a signed-out visitor of %s to /', async (path) => {
    const page = await browser.newPage();
    await page.goto(path);
    const login = new LoginPage(page);
    await login.heading.waitFor();
    expect(pathOf(page)).toBe('/');
    await expect(login.notice.count()).resolves.toBe(0);
    await expect(new TopBar(page).historyButton.count()).resolves.toBe(0);
  });

  it('sends a signed-in user from / to /home', async () => {
    const page = await browser.newPage();
    await signUpAndLogin(page);
    await page.goto('/');
    await new HomePage(page).heading.waitFor();
    expect(pathOf(page)).toBe('/home');
  });
});

describe('create account, then log in', () => {
  it('creates the account, shows the notice for 2 s, and logs in to /home with the top bar menus', async () => {
    const page = await browser.newPage();
    const user = newUser();
    const login = await new LoginPage(page).goto();
    await screenshot(page, 'login');
    await login.createUserButton.click();
    const create = new CreateAccountPage(page);
    await create.heading.waitFor();
    await create.fill({ ...user, confirmPassword: user.password });
    await screenshot(page, 'create-account');
    await watchTimeline(page, 'Account created! Please log in.');
    await create.submitButton.click();

    await login.notice.filter({ hasText: 'Account created! Please log in.' }).waitFor();
    expect(pathOf(page)).toBe('/');
    await screenshot(page, 'login-account-created');
    await login.notice.waitFor({ state: 'hidden', timeout: 5000 });
    const noticeFor = await shownFor(page);
    expect(noticeFor).toBeGreaterThan(1200);
    expect(noticeFor).toBeLessThan(3500);

    await login.login(user.username, user.password);
    await page.waitForURL('**/home');
    await new HomePage(page).heading.waitFor();
    const topBar = new TopBar(page);
    await topBar.userButton(user.username).waitFor();
    const history = await topBar.openHistoryMenu();
    await expect(history.getByRole('menuitem').allTextContents()).resolves.toEqual(['Archives', 'Recycle Bin']);
    await screenshot(page, 'home-history-menu');
    await page.keyboard.press('Escape');
    const userMenu = await topBar.openUserMenu(user.username);
    await expect(userMenu.getByRole('menuitem').allTextContents()).resolves.toEqual([
      'Account',
      'Categories',
      'Logout',
    ]);
    await page.keyboard.press('Escape');
    await screenshot(page, 'home');
    expect(browser.pageErrors).toEqual([]);
  });

  it('shows the validation messages in order (docs/product.md, Sign-in and account), then the server message', async () => {
    const page = await browser.newPage();
    const create = await new CreateAccountPage(page).goto();
    const user = newUser();
    const cases: [Partial<typeof user & { confirmPassword: string }>, string][] = [
      [{ ...user, confirmPassword: '' }, 'All fields are required.'],
      [{ ...user, email: 'not-an-email', confirmPassword: 'x' }, 'Please enter a valid email address.'],
      [{ ...user, confirmPassword: 'Different1!' }, 'Passwords do not match.'],
      [
        { ...user, password: 'weakpass', confirmPassword: 'weakpass' },
        'Password must be at least 8 characters, include uppercase, lowercase, a number, and a special character.',
      ],
    ];
    for (const [form, message] of cases) {
      await create.submit(form);
      await create.error.filter({ hasText: message }).waitFor();
      expect(pathOf(page)).toBe('/user');
    }
    await screenshot(page, 'create-account-error');

    const taken = await createUser();
    await create.submit({ ...newUser(), username: taken.username, confirmPassword: taken.password });
    await create.error.filter({ hasText: 'Username already exists' }).waitFor();
  });
});

describe('login', () => {
  it('sends nothing while a field is empty', async () => {
    const page = await browser.newPage();
    const login = await new LoginPage(page).goto();
    let loginCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/auth/login')) loginCalls += 1;
    });
    await login.fill('someone', '');
    await expect(login.submitButton.isDisabled()).resolves.toBe(true);
    await login.password.press('Enter');
    await login.fill('', 'Secret1!');
    await login.password.press('Enter');
    await expect(login.submitButton.isDisabled()).resolves.toBe(true);
    await page.waitForTimeout(300);
    expect(loginCalls).toBe(0);
  });

  it('toggles the password between hidden and shown', async () => {
    const page = await browser.newPage();
    const login = await new LoginPage(page).goto();
    await login.password.fill('Secret1!');
    await expect(login.password.getAttribute('type')).resolves.toBe('password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(login.password.getAttribute('type')).resolves.toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(login.password.getAttribute('type')).resolves.toBe('password');
  });

  it('names a wrong password, for 3 s, and stays on /', async () => {
    const page = await browser.newPage();
    const user = await createUser();
    const login = await new LoginPage(page).goto();
    await watchTimeline(page, 'Unauthorized: Invalid username or password.');
    await login.login(user.username, 'Wrong!Passw0rd');
    await login.notice.filter({ hasText: 'Unauthorized: Invalid username or password.' }).waitFor();
    await screenshot(page, 'login-wrong-password');
    await login.notice.waitFor({ state: 'hidden', timeout: 6000 });
    expect(await shownFor(page)).toBeGreaterThan(2200);
    expect(pathOf(page)).toBe('/');
    const storage = await sessionStorageOf(page);
    expect(storage.accessToken).toBeUndefined();
  });

  it.each([
    ['the server is unreachable', 'Service Currently Unavailable. Please try again later.'],
    ['the answer is OK but not JSON', 'Login failed due to an unexpected server response. Please try again later.'],
    ['the browser is offline', 'Login failed due to an unexpected error. Please try again later.'],
    ['the proxy says the connection was reset', 'Connection Reset. Please try again later.'],
  ])('names the failure when %s', async (failure, message) => {
    const page = await browser.newPage();
    const login = await new LoginPage(page).goto();
    if (failure === 'the server is unreachable') {
      await page.route('**/api/v1/auth/login', (route) => route.abort('connectionrefused'));
    } else if (failure === 'the answer is OK but not JSON') {
      await page.route('**/api/v1/auth/login', (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<html>captive portal</html>' }),
      );
    } else if (failure === 'the proxy says the connection was reset') {
      await page.route('**/api/v1/auth/login', (route) =>
        route.fulfill({ status: 500, contentType: 'text/plain', body: 'read ECONNRESET' }),
      );
    } else {
      await page.context().setOffline(true);
    }
    await login.login('someone', 'Secret1!');
    await login.notice.filter({ hasText: message }).waitFor();
  });
});

describe('logout', () => {
  it('clears the session and every saved view setting, then shows the logout notice on /', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    // What the home page saves (docs/product.md, Saved view settings); logout must remove all of it.
    await page.evaluate(() => {
      const saved = {
        filters: '{"invoice":"7"}',
        includeArchived: 'true',
        dateRange: '{"start":"2026-01-01","end":null}',
        dateMode: '"range"',
        page: '2',
        pageSize: '25',
        columnVisibility: '{"services":false}',
        sortModel: '[{"field":"amount","sort":"asc"}]',
        showMoreOptions: 'true',
      };
      for (const [key, value] of Object.entries(saved)) sessionStorage.setItem(key, value);
    });
    await new TopBar(page).logout(user.username);
    const login = new LoginPage(page);
    await login.notice.filter({ hasText: 'You have been logged out' }).waitFor();
    expect(pathOf(page)).toBe('/');
    await screenshot(page, 'login-logged-out');
    await expect(sessionStorageOf(page)).resolves.toEqual({});
    await expect(new TopBar(page).historyButton.count()).resolves.toBe(0);

    // /logout replaced itself in history; going back reaches /home, which is guarded again.
    await page.goBack();
    await waitForPath(page, '/');
    await login.heading.waitFor();
    await expect(sessionStorageOf(page)).resolves.toEqual({});
  });
});
