// Progressive enhancement only: every console page works without this file.
document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const input = document.getElementById(button.dataset.copy);
    const status = document.querySelector('[data-copy-status]');
    if (!input || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(input.value);
        if (status) status.textContent = 'Copied to the clipboard.';
      } catch {
        input.select();
        if (status) status.textContent = 'Select the key and copy it with your keyboard.';
      }
    });
  }
  const secret = document.querySelector('[data-new-key]');
  if (secret) secret.addEventListener('focus', () => secret.select());
});
